//! A hook the host runs between the steps of a long computation, so that it can be cancelled
//! (PostgreSQL: `statement_timeout`, `pg_cancel_backend`). The host sets it once; without one
//! (plain `cargo test`) checking does nothing. The hook may unwind: the computation holds only
//! memory it owns.
//!
//! A computation the host runs on a thread apart ([`apart`]) must not run the hook there (a
//! host's check may be bound to its own thread): there a flag the host sets stops it instead.

use std::cell::RefCell;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, OnceLock};

static HOOK: OnceLock<fn()> = OnceLock::new();

thread_local! {
    /// The flag that stops the computation on this thread, if it runs [`apart`].
    static STOP: RefCell<Option<Arc<AtomicBool>>> = const { RefCell::new(None) };
}

/// Sets the hook; only the first call counts.
pub fn set_hook(hook: fn()) {
    let _ = HOOK.set(hook);
}

/// Runs the hook, if any; on a thread [`apart`], unwinds with [`Stopped`] once its flag is set.
pub fn check() {
    let stopped = STOP.with(|stop| stop.borrow().as_ref().map(|s| s.load(Ordering::Relaxed)));
    match stopped {
        // (resume_unwind: no panic hook runs, as for no failure)
        Some(true) => std::panic::resume_unwind(Box::new(Stopped)),
        Some(false) => {}
        None => {
            if let Some(hook) = HOOK.get() {
                hook();
            }
        }
    }
}

/// What a computation stopped by its flag unwinds with ([`apart`]).
#[derive(Debug)]
pub struct Stopped;

/// Runs `work` on this thread, a thread apart from the host's: its checks read `stop` instead of
/// running the hook, and unwind with [`Stopped`] once it is set.
pub fn apart<R>(stop: Arc<AtomicBool>, work: impl FnOnce() -> R) -> R {
    /// (the thread's flag taken away however `work` ends)
    struct Unset;
    impl Drop for Unset {
        fn drop(&mut self) {
            STOP.with(|s| s.borrow_mut().take());
        }
    }
    STOP.with(|s| *s.borrow_mut() = Some(stop));
    let _unset = Unset;
    work()
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

    #[test]
    fn a_computation_apart_runs_until_its_flag_is_set_then_unwinds() {
        use std::sync::atomic::AtomicBool;
        use std::sync::Arc;
        let stop = Arc::new(AtomicBool::new(false));
        let flag = stop.clone();
        let worker = std::thread::spawn(move || {
            super::apart(flag, || {
                let mut steps = 0u64;
                loop {
                    super::check();
                    steps += 1;
                    if steps == 1000 {
                        return steps;
                    }
                }
            })
        });
        assert_eq!(worker.join().unwrap(), 1000);
        let flag = stop.clone();
        let worker = std::thread::spawn(move || {
            super::apart(flag, || loop {
                super::check();
                std::thread::yield_now();
            })
        });
        stop.store(true, Ordering::Relaxed);
        let payload = worker.join().unwrap_err();
        assert!(payload.downcast_ref::<super::Stopped>().is_some());
    }

    #[test]
    fn the_flag_of_a_computation_apart_ends_with_it() {
        use std::sync::atomic::AtomicBool;
        use std::sync::Arc;
        let stop = Arc::new(AtomicBool::new(true));
        let unwound = std::panic::catch_unwind(|| super::apart(stop, super::check));
        assert!(unwound.is_err());
        // the same thread checks as the host's again: no flag stops it
        super::check();
        assert!(super::STOP.with(|s| s.borrow().is_none()));
    }
}
