//! A hook the host runs between the steps of a long computation, so that it can be cancelled
//! (PostgreSQL: `statement_timeout`, `pg_cancel_backend`). The host sets it once; without one
//! (plain `cargo test`) checking does nothing. The hook may unwind: the computation holds only
//! memory it owns.

use std::sync::OnceLock;

static HOOK: OnceLock<fn()> = OnceLock::new();

/// Sets the hook; only the first call counts.
pub fn set_hook(hook: fn()) {
    let _ = HOOK.set(hook);
}

/// Runs the hook, if any.
pub fn check() {
    if let Some(hook) = HOOK.get() {
        hook();
    }
}

#[cfg(test)]
mod tests {
    use std::sync::atomic::{AtomicUsize, Ordering};

    use crate::tournament::pairing::{pair_next_round, PairingOptions};
    use crate::tournament::Tournament;

    static CHECKS: AtomicUsize = AtomicUsize::new(0);

    #[test]
    fn a_pairing_runs_the_hook_between_steps() {
        // (the only test that sets the hook: counting is harmless to the others)
        super::set_hook(|| {
            CHECKS.fetch_add(1, Ordering::Relaxed);
        });
        let t = Tournament::new(3, vec![Some(2000); 20]).unwrap();
        let before = CHECKS.load(Ordering::Relaxed);
        pair_next_round(&t, &PairingOptions::default()).unwrap();
        assert!(CHECKS.load(Ordering::Relaxed) > before);
    }
}
