//! The exact odds of a pending decision, worked out after its command is answered.
//!
//! A command replays its fight without the odds of the decision it leads to (`opend6` follows
//! the Wild Die's explosions for every attack offered: up to a quarter of a second), is committed,
//! answered, and told to the pages at once. The odds follow: the command hands an [`OddsTask`]
//! (the work owns a copy of what the ruleset needs, so no replay and no lock) to one worker
//! thread, which works it out unless the fight has moved on meanwhile (a later command makes
//! it moot: that task is dropped unworked), puts the odds into the fight if its version is still
//! the same, and tells the pages ([`Told::Odds`]). One worker, so the odds never take more than
//! one core from the commands and the pages.
//!
//! `GET /api/fights/{id}` and `GET /api/view/{token}` give complete odds: a read that finds them
//! missing works them out itself, or waits for the worker that is at it ([`complete`]).

use crate::Fight;
use fray_live::{OddsWork, Session};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::mpsc;
use std::sync::{Arc, Condvar, Mutex};
use std::time::{Duration, Instant};

/// How long the worker waits, at most, for a moment when no command or page is being served.
const YIELD: Duration = Duration::from_millis(100);

/// What a fight tells its pages.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Told {
    /// The fight is at this version (a command, or a setting).
    Version(usize),
    /// The odds of the decision at this version are in.
    Odds(usize),
}

/// The odds of one fight's decision at one version, to work out once.
pub(crate) struct OddsTask {
    version: usize,
    /// When its command was answered.
    since: Instant,
    /// The work, until someone takes it.
    work: Mutex<Option<OddsWork>>,
    /// Whether the work is done (or dropped), for those who wait for it.
    done: Mutex<bool>,
    finished: Condvar,
}

impl OddsTask {
    fn new(work: OddsWork) -> OddsTask {
        OddsTask {
            version: work.version(),
            since: Instant::now(),
            work: Mutex::new(Some(work)),
            done: Mutex::new(false),
            finished: Condvar::new(),
        }
    }

    /// Works the odds out and puts them into `fight` (telling its pages), unless another thread
    /// took the work first: then waits until that one is done. The fight's lock is taken only
    /// to put the odds in.
    fn work_out(&self, fight: &Fight) {
        let work = self.work.lock().unwrap_or_else(|p| p.into_inner()).take();
        match work {
            Some(work) => {
                let worked = work.run();
                {
                    let mut session = fight.session();
                    if session.put_odds(worked) {
                        fight.note_shown(&session);
                        let _ = fight.versions.send(Told::Odds(self.version));
                    }
                }
                self.finish();
            }
            None => {
                let mut done = self.done.lock().unwrap_or_else(|p| p.into_inner());
                while !*done {
                    done = self.finished.wait(done).unwrap_or_else(|p| p.into_inner());
                }
            }
        }
    }

    fn finish(&self) {
        *self.done.lock().unwrap_or_else(|p| p.into_inner()) = true;
        self.finished.notify_all();
    }
}

/// The worker that works out the odds of the fights' decisions, one at a time, newest task of a
/// fight only.
#[derive(Debug)]
pub(crate) struct Worker {
    queue: mpsc::Sender<(Arc<Fight>, Arc<OddsTask>)>,
    held: Arc<(Mutex<bool>, Condvar)>,
    /// How many commands and pages are being served.
    busy: Arc<AtomicUsize>,
    /// How many decisions' odds the worker worked out, and how many it dropped unworked.
    counts: Arc<(AtomicUsize, AtomicUsize)>,
}

/// How many decisions' odds the worker worked out, and how many it dropped unworked because a
/// later command came first ([`crate::State::odds_counts`]).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct OddsCounts {
    /// Worked out by the worker (not those a read of the API worked out itself).
    pub worked: usize,
    /// Dropped unworked: the fight had moved on.
    pub dropped: usize,
}

/// A command or a page being served, while it lives ([`Worker::busy`]).
pub(crate) struct Busy<'a>(&'a AtomicUsize);

impl Drop for Busy<'_> {
    fn drop(&mut self) {
        self.0.fetch_sub(1, Ordering::Relaxed);
    }
}

impl Worker {
    /// Starts the worker thread; it ends when the worker is dropped.
    pub(crate) fn start() -> Worker {
        let (queue, tasks) = mpsc::channel::<(Arc<Fight>, Arc<OddsTask>)>();
        let held = Arc::new((Mutex::new(false), Condvar::new()));
        let busy = Arc::new(AtomicUsize::new(0));
        let counts = Arc::new((AtomicUsize::new(0), AtomicUsize::new(0)));
        let (gate, serving, counted) = (held.clone(), busy.clone(), counts.clone());
        let spawned = std::thread::Builder::new().name("fray-odds".into()).spawn(move || {
            for (fight, task) in tasks {
                {
                    let (lock, released) = &*gate;
                    let mut held = lock.lock().unwrap_or_else(|p| p.into_inner());
                    while *held {
                        held = released.wait(held).unwrap_or_else(|p| p.into_inner());
                    }
                }
                // The odds take what the commands and the pages leave of the machine: while any
                // is being served, they wait a moment from the command (a command that comes
                // meanwhile makes them moot).
                let current = || fight.odds_task().is_some_and(|current| Arc::ptr_eq(&current, &task));
                while current() && serving.load(Ordering::Relaxed) > 0 && task.since.elapsed() < YIELD {
                    std::thread::sleep(Duration::from_millis(1));
                }
                if current() {
                    counted.0.fetch_add(1, Ordering::Relaxed);
                    task.work_out(&fight);
                } else {
                    // The fight moved on: these odds would never be shown.
                    counted.1.fetch_add(1, Ordering::Relaxed);
                    task.finish();
                }
            }
        });
        if let Err(e) = spawned {
            eprintln!("fray serve: no thread for the odds ({e}); a decision's odds come when its state is read");
        }
        Worker { queue, held, busy, counts }
    }

    /// Hands the pending decision's odds to the worker, if the command just applied deferred
    /// them; called under the fight's lock, after the command is committed.
    pub(crate) fn schedule(&self, fight: &Arc<Fight>, session: &mut Session) {
        let task = session.odds_work().map(|work| Arc::new(OddsTask::new(work)));
        *fight.odds.lock().unwrap_or_else(|p| p.into_inner()) = task.clone();
        if let Some(task) = task {
            let _ = self.queue.send((fight.clone(), task));
        }
    }

    /// Marks a command or a page being served, while the mark lives.
    pub(crate) fn busy(&self) -> Busy<'_> {
        self.busy.fetch_add(1, Ordering::Relaxed);
        Busy(&self.busy)
    }

    /// How many decisions' odds the worker worked out and dropped so far.
    pub(crate) fn counts(&self) -> OddsCounts {
        OddsCounts { worked: self.counts.0.load(Ordering::Relaxed), dropped: self.counts.1.load(Ordering::Relaxed) }
    }

    /// Holds the worker (`true`) or lets it go on.
    pub(crate) fn hold(&self, hold: bool) {
        let (lock, released) = &*self.held;
        *lock.lock().unwrap_or_else(|p| p.into_inner()) = hold;
        released.notify_all();
    }
}

/// Makes sure the fight's pending decision has its odds, for a read that must give them: works
/// them out here if no one has started, or waits for the worker at it. Call it off the async
/// executor, without the fight's lock.
pub(crate) fn complete(fight: &Fight) {
    // A few rounds at most: each one ends with the odds in, unless a command came meanwhile.
    for _ in 0..3 {
        let task = {
            let session = fight.session();
            if session.snapshot().odds_worked_out {
                return;
            }
            match fight.odds_task() {
                Some(task) if task.version == session.version() => task,
                _ => return,
            }
        };
        task.work_out(fight);
    }
}
