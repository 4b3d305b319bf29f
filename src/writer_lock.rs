//! The writers' locks of derived rows, one machinery for the ledgers and the Random Chess
//! rankings. Every writer of a unit's rows (a ledger's scope, a ranking's ledger included:
//! `ledger_scopes`; a ranking in a schema of 0.9.0: `ranking_locks`) first updates the unit's row in its lock table (made by the unit's first
//! writer), all the units of a statement at once and in key order: writers of different units
//! never wait for each other, and never deadlock among themselves. Under REPEATABLE READ a writer
//! whose snapshot missed another writer's commit fails on the update with 40001.
//!
//! A row is updated the first time in a transaction only: every update of one row in one
//! transaction lengthens the chain of its versions that the next update must walk, so a
//! transaction writing one game per statement would slow down game after game. After that the
//! row's lock is known to be held, and nothing is run, while the subtransaction that took it is
//! still active; once that subtransaction has ended (a savepoint released or rolled back) the row
//! is locked again, which also learns whether the lock survived.

use std::cell::RefCell;
use std::collections::{HashMap, HashSet};

use pgrx::datum::DatumWithOid;
use pgrx::prelude::*;
use pgrx::spi::SpiClient;

use crate::error::internal;
use crate::keyed::{key_args, shaped, texts, Key, Texts};
use crate::spi::write;

/// A table of lock rows: keyed by an int column and, for a ledger's scopes, a text column; each
/// row counts its writers in `writes`.
pub struct LockTable {
    name: &'static str,
    key: &'static [&'static str],
    upsert: Texts,
    relock: Texts,
}

/// A lock row: (table, int key, text key).
type LockRow = (&'static str, i32, String);

/// What this transaction knows of a lock row.
enum Known {
    /// Locked by a subtransaction still active: held for sure.
    Held,
    /// Updated by a subtransaction that has ended since: held unless a savepoint rolled it back.
    Again,
    /// Not updated by this transaction.
    New,
}

thread_local! {
    /// The lock rows this transaction (by local id) has updated, each with the subtransaction
    /// that last took its lock.
    static UPDATED: RefCell<(pg_sys::LocalTransactionId, HashMap<LockRow, pg_sys::SubTransactionId>)> =
        RefCell::new((0, HashMap::new()));
}

/// The rows this transaction has updated, forgotten when a new transaction begins.
fn updated_rows<T>(f: impl FnOnce(&mut HashMap<LockRow, pg_sys::SubTransactionId>) -> T) -> T {
    UPDATED.with_borrow_mut(|(xact, rows)| {
        let transaction = local_transaction();
        if *xact != transaction {
            *xact = transaction;
            rows.clear();
        }
        f(rows)
    })
}

/// This transaction's local id.
pub fn local_transaction() -> pg_sys::LocalTransactionId {
    // SAFETY: this backend's PGPROC, set up before any SQL runs.
    unsafe { (*pg_sys::MyProc).lxid }
}

/// The subtransaction running now (the transaction itself outside any savepoint).
pub fn current_subtransaction() -> pg_sys::SubTransactionId {
    // SAFETY: reads the transaction state of this backend.
    unsafe { pg_sys::GetCurrentSubTransactionId() }
}

/// Whether the locks taken in `subtransaction` are still held: it is this one or an enclosing
/// one, none of them rolled back. (One that was released gave its locks to its parent, but
/// this answers no then: the caller locks again, which is right either way.)
pub fn still_active(subtransaction: pg_sys::SubTransactionId) -> bool {
    // SAFETY: walks the transaction state stack of this backend.
    unsafe { pg_sys::SubTransactionIsActive(subtransaction) }
}

/// Whether this transaction reads with one snapshot for all its statements (REPEATABLE READ or
/// SERIALIZABLE), so that a row it reads may have changed since without its knowing.
pub fn snapshot_per_transaction() -> bool {
    // SAFETY: reads this backend's isolation level.
    unsafe { pg_sys::XactIsoLevel >= pg_sys::XACT_REPEATABLE_READ as i32 }
}

/// The order locks are taken in: by the int, then the text byte by byte.
fn in_key_order(a: &(i32, &str), b: &(i32, &str)) -> std::cmp::Ordering {
    a.0.cmp(&b.0).then(a.1.as_bytes().cmp(b.1.as_bytes()))
}

impl LockTable {
    /// `key`: the int key column, then the text one if the table has it.
    pub const fn new(name: &'static str, key: &'static [&'static str]) -> Self {
        LockTable {
            name,
            key,
            upsert: texts(),
            relock: texts(),
        }
    }

    /// The lock row of a key: the text is ignored by a table keyed by an int alone.
    fn row(&self, id: i32, text: &str) -> LockRow {
        let text = if self.key.len() > 1 { text } else { "" };
        (self.name, id, text.to_owned())
    }

    /// What this transaction knows of the lock row of a key.
    fn known(
        &self,
        rows: &HashMap<LockRow, pg_sys::SubTransactionId>,
        id: i32,
        text: &str,
    ) -> Known {
        match rows.get(&self.row(id, text)) {
            Some(&by) if still_active(by) => Known::Held,
            Some(_) => Known::Again,
            None => Known::New,
        }
    }

    fn args<'a>(&self, keys: &[(i32, &'a str)]) -> Vec<DatumWithOid<'a>> {
        let keys = keys
            .iter()
            .map(|(id, text)| -> Key<'a> { (*id, Some(*text), None) });
        key_args(self.key.len(), keys)
    }

    /// The key columns, the text one compared byte by byte (the order Rust sorts keys in).
    fn ordered_key(&self) -> String {
        let mut columns = vec![format!("t.{}", self.key[0])];
        columns.extend(self.key.get(1).map(|c| format!("t.{c} COLLATE \"C\"")));
        columns.join(", ")
    }

    /// Waits for, then holds until commit, the lock rows of `keys` (the text of a key is ignored
    /// by a table keyed by an int alone), taken in key order; a missing row is made. Returns
    /// whether one of the rows existed already (a rebuild learns so that a writer made a scope
    /// meanwhile).
    pub fn lock(&'static self, client: &mut SpiClient<'_>, keys: &[(i32, &str)]) -> bool {
        let width = self.key.len();
        let mut keys: Vec<(i32, &str)> = keys
            .iter()
            .map(|&(id, text)| (id, if width > 1 { text } else { "" }))
            .collect();
        keys.sort_unstable_by(in_key_order);
        keys.dedup();
        if keys.is_empty() {
            return false;
        }
        let (mut again, mut new) = (Vec::new(), Vec::new());
        let mut held = false;
        updated_rows(|rows| {
            for &(id, text) in &keys {
                match self.known(rows, id, text) {
                    Known::Held => held = true,
                    Known::Again => again.push((id, text)),
                    Known::New => new.push((id, text)),
                }
            }
        });
        let mut existed = held;
        if !again.is_empty() {
            // Updated by this transaction in a subtransaction that has ended since: held unless
            // a savepoint rolled it back, so this never waits then; otherwise it waits as the
            // first lock would, and a row whose insert was rolled back is made below.
            let text = shaped(&self.relock, again.len(), width, |rows| {
                let key: Vec<String> = self.key.iter().map(|c| format!("t.{c}")).collect();
                let key = key.join(", ");
                format!(
                    "SELECT {key} FROM @extschema@.{} t WHERE ({key}) IN ({rows}) ORDER BY {} FOR UPDATE OF t",
                    self.name,
                    self.ordered_key(),
                )
            });
            let found: HashSet<(i32, String)> = write(client, text, &self.args(&again))
                .map(|row| {
                    let id = row.get::<i32>(1).ok().flatten();
                    let text = if width > 1 {
                        row.get::<String>(2).ok().flatten()
                    } else {
                        Some(String::new())
                    };
                    match (id, text) {
                        (Some(id), Some(text)) => (id, text),
                        _ => internal(format!("a NULL key in {}", self.name)),
                    }
                })
                .collect();
            existed |= !found.is_empty();
            self.note_updated(found.iter().cloned());
            new.extend(
                again
                    .into_iter()
                    .filter(|(id, text)| !found.contains(&(*id, (*text).to_owned()))),
            );
            new.sort_unstable_by(in_key_order);
        }
        if new.is_empty() {
            return existed;
        }
        let columns = self.key.join(", ");
        let text = shaped(&self.upsert, new.len(), width, |rows| {
            format!(
                "INSERT INTO @extschema@.{} AS t ({columns}) {rows}
                 ON CONFLICT ({columns}) DO UPDATE SET writes = t.writes + 1
                 RETURNING (t.xmax <> 0) AS existed",
                self.name
            )
        });
        existed |= write(client, text, &self.args(&new))
            .any(|row| row.get::<bool>(1).ok().flatten() == Some(true));
        self.note_updated(new.iter().map(|(id, text)| (*id, (*text).to_owned())));
        existed
    }

    /// Records lock rows this transaction has updated (or locked again) by a statement of its
    /// own (a rebuild's update of every scope of a ledger), in the subtransaction running now.
    pub fn note_updated(&'static self, keys: impl IntoIterator<Item = (i32, String)>) {
        let by = current_subtransaction();
        updated_rows(|rows| {
            rows.extend(keys.into_iter().map(|(id, text)| (self.row(id, &text), by)))
        });
    }

    /// Whether this transaction holds the locks of all of `keys` for sure (taken in a
    /// subtransaction still active), so that [`LockTable::lock`] would run nothing.
    pub fn holds(&'static self, keys: &[(i32, &str)]) -> bool {
        updated_rows(|rows| {
            keys.iter()
                .all(|&(id, text)| matches!(self.known(rows, id, text), Known::Held))
        })
    }

    /// Forgets the rows this transaction has locked (their rows were deleted, so a later writer
    /// makes them again).
    pub fn forget_held(&'static self) {
        updated_rows(|rows| rows.retain(|(table, _, _), _| *table != self.name));
    }
}
