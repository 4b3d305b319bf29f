-- The foreign keys of table $1 whose referencing columns include column $2 (fewest columns first):
-- the referenced table, the number of columns, the referenced column and the key's equality
-- operators written OPERATOR(schema.op) (referenced = referencing, referenced = referenced).
-- Read by src/ledger/store.rs (foreign_key), to follow a step of a column path.
SELECT k.confrelid AS target, pg_catalog.array_length(k.conkey, 1) AS columns,
       fa.attname::text AS refcol,
       (SELECT pg_catalog.format('OPERATOR(%I.%s)', ns.nspname, o.oprname)
        FROM pg_catalog.pg_operator o JOIN pg_catalog.pg_namespace ns ON ns.oid = o.oprnamespace
        WHERE o.oid = k.conpfeqop[1]) AS pf_op,
       (SELECT pg_catalog.format('OPERATOR(%I.%s)', ns.nspname, o.oprname)
        FROM pg_catalog.pg_operator o JOIN pg_catalog.pg_namespace ns ON ns.oid = o.oprnamespace
        WHERE o.oid = k.conppeqop[1]) AS pp_op
FROM pg_catalog.pg_constraint k
JOIN pg_catalog.pg_attribute ca ON ca.attrelid = k.conrelid AND ca.attnum = ANY (k.conkey)
LEFT JOIN pg_catalog.pg_attribute fa ON fa.attrelid = k.confrelid AND fa.attnum = k.confkey[1]
WHERE k.contype = 'f' AND k.conrelid = $1 AND ca.attname = $2 AND k.conparentid = 0
ORDER BY 2, k.oid
