//! Event sinks: where a fight's events go. A fight never keeps its log unless its sink does.

/// Receives every event of a fight, in order.
pub trait Sink<E> {
    /// One event, already applied to the state.
    fn event(&mut self, event: &E);
}

impl<E, S: Sink<E> + ?Sized> Sink<E> for &mut S {
    fn event(&mut self, event: &E) {
        (**self).event(event);
    }
}

/// Drops every event (the simulator's default).
#[derive(Clone, Copy, Debug, Default)]
pub struct Discard;

impl<E> Sink<E> for Discard {
    fn event(&mut self, _event: &E) {}
}

/// Keeps every event (a fight log, replay, tests).
#[derive(Clone, Debug)]
pub struct Record<E>(pub Vec<E>);

impl<E> Default for Record<E> {
    fn default() -> Record<E> {
        Record(Vec::new())
    }
}

impl<E: Clone> Sink<E> for Record<E> {
    fn event(&mut self, event: &E) {
        self.0.push(event.clone());
    }
}

/// Calls a function for every event (counting, printing).
pub struct FnSink<F>(pub F);

impl<E, F: FnMut(&E)> Sink<E> for FnSink<F> {
    fn event(&mut self, event: &E) {
        (self.0)(event);
    }
}
