//! PostgreSQL's oids of the built-in types the core tells apart (fixed by its catalog).
pub const BOOL: u32 = 16;
pub const INT8: u32 = 20;
pub const INT2: u32 = 21;
pub const INT4: u32 = 23;
pub const TEXT: u32 = 25;
pub const FLOAT4: u32 = 700;
pub const FLOAT8: u32 = 701;
pub const VARCHAR: u32 = 1043;
pub const DATE: u32 = 1082;
pub const TIMESTAMP: u32 = 1114;
pub const TIMESTAMPTZ: u32 = 1184;
pub const NUMERIC: u32 = 1700;
pub const UUID: u32 = 2950;
pub const INTEGERS: [u32; 3] = [INT2, INT4, INT8];
