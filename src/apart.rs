//! A computation of the core on a second thread while this backend's own thread reads tables:
//! a checked rebuild replays its games while the stored rows are digested.
//!
//! PostgreSQL is single-threaded: the second thread calls nothing of it (the core reads
//! nothing, and pgrx refuses a call into PostgreSQL from any thread but the backend's), runs
//! with every signal blocked (PostgreSQL's handlers run on the backend's thread only), and
//! checks a flag instead of PostgreSQL's interrupts (`pg_rating_core::interrupt::apart`). It is
//! joined before [`alongside`] returns or unwinds, so no thread outlives the call.

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::Duration;

/// Runs `work` (the core's, no call into PostgreSQL) on a second thread while `here` runs on the
/// backend's; returns both results. An ERROR or a cancel here stops `work` at its next check,
/// and is raised once it has stopped; a panic of `work` is raised here as a defect (XX000).
/// When no thread can be started, `work` runs here first.
pub fn alongside<A: Send, B>(work: impl FnOnce() -> A + Send, here: impl FnOnce() -> B) -> (A, B) {
    let stop = Arc::new(AtomicBool::new(false));
    // (where the thread takes `work` from: left here when no thread starts)
    let work = std::sync::Mutex::new(Some(work));
    std::thread::scope(|scope| {
        // (dropped however this closure ends, before the scope joins the thread: an unwinding
        // ERROR stops the work instead of waiting for its end)
        let _stop = StopOnDrop(&stop);
        let backend = std::thread::current();
        let flag = stop.clone();
        let work = &work;
        let spawned = with_signals_blocked(|| {
            std::thread::Builder::new()
                .name("pg_rating apart".into())
                // (a backend's own stack: Rust's default of 2 MiB would make the work's depth
                // limit lower here than on the backend's thread)
                .stack_size(8 << 20)
                .spawn_scoped(scope, move || {
                    let _wake = WakeOnDrop(backend);
                    let work = take(work);
                    pg_rating_core::interrupt::apart(flag, work)
                })
        });
        let worker = match spawned {
            Ok(worker) => worker,
            Err(e) => {
                pgrx::debug1!("pg_rating: no second thread ({e}): one computation after the other");
                return (take(work)(), here());
            }
        };
        let b = here();
        while !worker.is_finished() {
            pgrx::check_for_interrupts!();
            std::thread::park_timeout(Duration::from_millis(10));
        }
        match worker.join() {
            Ok(a) => (a, b),
            // (a panic of the core is a defect: reported as one, with its message; resumed
            // as it is, it would carry the location of the backend's last error)
            Err(payload) => crate::error::internal(format!(
                "pg_rating's computation apart failed: {}",
                panic_message(payload.as_ref())
            )),
        }
    })
}

/// The message of a panic's payload.
fn panic_message(payload: &(dyn std::any::Any + Send)) -> &str {
    payload
        .downcast_ref::<&str>()
        .copied()
        .or_else(|| payload.downcast_ref::<String>().map(String::as_str))
        .unwrap_or("a panic without a message")
}

/// The work in `slot`, taken once.
fn take<W>(slot: &std::sync::Mutex<Option<W>>) -> W {
    let taken = slot.lock().map(|mut w| w.take());
    // (taken once, by the thread or, when none started, here; the lock is never poisoned: no
    // code runs while it is held)
    taken
        .ok()
        .flatten()
        .unwrap_or_else(|| panic!("a computation apart taken twice"))
}

/// Sets the flag that stops the work apart when dropped.
struct StopOnDrop<'a>(&'a AtomicBool);

impl Drop for StopOnDrop<'_> {
    fn drop(&mut self) {
        self.0.store(true, Ordering::Relaxed);
    }
}

/// Wakes the backend's thread (waiting for the work apart) when the work ends, however it ends.
struct WakeOnDrop(std::thread::Thread);

impl Drop for WakeOnDrop {
    fn drop(&mut self) {
        self.0.unpark();
    }
}

/// Runs `start` with every signal blocked on this thread, so that a thread it starts inherits
/// that mask; this thread's mask is restored after, however `start` ends.
fn with_signals_blocked<R>(start: impl FnOnce() -> R) -> R {
    /// This thread's mask before, put back when dropped.
    struct Restore(libc::sigset_t);
    impl Drop for Restore {
        fn drop(&mut self) {
            // SAFETY: sets this thread's mask to the one read before (a set pthread_sigmask wrote).
            unsafe { libc::pthread_sigmask(libc::SIG_SETMASK, &self.0, std::ptr::null_mut()) };
        }
    }
    // SAFETY: sigfillset writes the set it is given, a local one; pthread_sigmask changes this
    // thread's mask only, and writes the old one into a local set.
    let _restore = unsafe {
        let mut all: libc::sigset_t = std::mem::zeroed();
        let mut old: libc::sigset_t = std::mem::zeroed();
        libc::sigfillset(&mut all);
        if libc::pthread_sigmask(libc::SIG_SETMASK, &all, &mut old) != 0 {
            crate::error::internal("the signal mask could not be set");
        }
        Restore(old)
    };
    start()
}

#[cfg(any(test, feature = "pg_test"))]
#[pgrx::pg_schema]
mod tests {
    use std::sync::atomic::{AtomicBool, Ordering};
    use std::time::Duration;

    use pgrx::prelude::*;

    use super::alongside;

    /// This thread's blocked signals.
    fn blocked_signals() -> libc::sigset_t {
        // SAFETY: reads this thread's mask into a local set (no change: no set given).
        unsafe {
            let mut mask: libc::sigset_t = std::mem::zeroed();
            assert_eq!(
                libc::pthread_sigmask(libc::SIG_BLOCK, std::ptr::null(), &mut mask),
                0
            );
            mask
        }
    }

    fn is_blocked(mask: &libc::sigset_t, signal: i32) -> bool {
        // SAFETY: reads a set made by pthread_sigmask.
        unsafe { libc::sigismember(mask, signal) == 1 }
    }

    #[pg_test]
    fn the_work_runs_on_another_thread_with_signals_blocked_and_both_results_come_back() {
        let backend = std::thread::current().id();
        let before = blocked_signals();
        let ((thread, mask), here) = alongside(
            || (std::thread::current().id(), blocked_signals()),
            || Spi::get_one::<i32>("SELECT 6 * 7").unwrap().unwrap(),
        );
        assert_ne!(thread, backend);
        assert_eq!(here, 42);
        for signal in [
            libc::SIGINT,
            libc::SIGTERM,
            libc::SIGUSR1,
            libc::SIGALRM,
            libc::SIGQUIT,
        ] {
            assert!(
                is_blocked(&mask, signal),
                "signal {signal} reaches the thread apart"
            );
            assert_eq!(
                is_blocked(&blocked_signals(), signal),
                is_blocked(&before, signal),
                "the backend's mask of signal {signal} changed"
            );
        }
    }

    #[pg_test]
    fn an_error_here_stops_the_work_apart_and_is_raised() {
        static STARTED: AtomicBool = AtomicBool::new(false);
        static FINISHED: AtomicBool = AtomicBool::new(false);
        let raised = PgTryBuilder::new(|| {
            alongside(
                || {
                    STARTED.store(true, Ordering::Relaxed);
                    // (a minute at most: stopped at a check, it ends far sooner)
                    for _ in 0..60_000 {
                        pg_rating_core::interrupt::check();
                        std::thread::sleep(Duration::from_millis(1));
                    }
                    FINISHED.store(true, Ordering::Relaxed);
                },
                || {
                    while !STARTED.load(Ordering::Relaxed) {
                        std::thread::yield_now();
                    }
                    error!("failed here")
                },
            );
            None
        })
        .catch_others(|e| match e {
            pg_sys::panic::CaughtError::ErrorReport(r) => Some(r.message().to_owned()),
            _ => Some("another error".to_owned()),
        })
        .execute();
        assert_eq!(raised.as_deref(), Some("failed here"));
        assert!(
            !FINISHED.load(Ordering::Relaxed),
            "the work apart ran to its end"
        );
    }

    #[pg_test(error = "pg_rating's computation apart failed: the work apart failed")]
    fn a_panic_apart_is_raised_here() {
        alongside(|| panic!("the work apart failed"), || ());
    }
}
