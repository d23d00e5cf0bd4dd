//! The one loop every dialect runs ([`drive`] over a [`Driver`]), and the UCCI/UCI driver.

use super::Session;
use crate::protocol::{Dialect, Event, Input};
use std::sync::mpsc::Receiver;

/// Whether the loop goes on after a command.
pub(crate) enum Flow {
    /// Keep reading commands.
    Continue,
    /// Leave the loop.
    Quit,
}

/// A protocol state machine over a [`Session`]. [`drive`] runs it: one loop for every dialect.
pub(crate) trait Driver {
    /// The session underneath.
    fn session(&mut self) -> &mut Session;
    /// Deals with a search that has finished; called before each wait and after each input.
    fn settle(&mut self);
    /// Handles one line.
    fn handle(&mut self, line: &str) -> Flow;
    /// The input ended.
    fn end_of_input(&mut self);
}

/// Runs `d` on the lines of `rx` until it quits or the input ends, woken by each line and by
/// each search's end, never by a timer.
pub(crate) fn drive(d: &mut impl Driver, rx: &Receiver<Event>) {
    loop {
        d.settle();
        let Some(input) = d.session().next_input(rx) else { continue };
        let Input::Line(line) = input else { return d.end_of_input() };
        d.settle();
        if let Flow::Quit = d.handle(&line) {
            return;
        }
    }
}

/// UCCI and UCI: each line one shared command, executed by the session itself.
pub(super) struct LineLoop<'a> {
    pub(super) s: Session,
    pub(super) dialect: &'a dyn Dialect,
}

impl Driver for LineLoop<'_> {
    fn session(&mut self) -> &mut Session {
        &mut self.s
    }

    fn settle(&mut self) {
        self.s.reap();
    }

    fn handle(&mut self, line: &str) -> Flow {
        match self.dialect.parse(line, &self.s.opts) {
            Ok(cmd) => self.s.execute(cmd),
            Err(e) => self.s.refuse(&e),
        }
    }

    /// A running search is stopped and announced.
    fn end_of_input(&mut self) {
        self.s.finish_search();
    }
}
