//! A one-line progress counter on standard error, for inputs of hundreds of files: shown
//! only when standard error is a terminal (never in pipes, logs or tests), redrawn in
//! place, and cleared before any error line and at the end.

use std::io::Write;

/// Inputs of fewer files than this finish too fast to need progress.
pub const MIN_FILES: usize = 200;

/// The longest file name shown; longer ones keep their end.
const NAME_WIDTH: usize = 50;

/// Progress over `total` files.
pub struct Progress {
    /// What is being done to each file (`converting`, `checking`).
    verb: &'static str,
    total: usize,
    done: usize,
    enabled: bool,
    /// A line is on the screen.
    drawn: bool,
}

impl Progress {
    /// Progress of `verb` over `total` files, drawn when `terminal` and the input is
    /// large.
    pub fn new(verb: &'static str, total: usize, terminal: bool) -> Self {
        Progress {
            verb,
            total,
            done: 0,
            enabled: terminal && total >= MIN_FILES,
            drawn: false,
        }
    }

    /// Starts on the next file, `name`.
    pub fn step(&mut self, name: &str) {
        self.done += 1;
        if !self.enabled {
            return;
        }
        let line = self.line(name);
        let mut err = std::io::stderr().lock();
        // Progress is decoration: a failed write is not worth reporting.
        let _ = write!(err, "\r\x1b[K{line}");
        let _ = err.flush();
        self.drawn = true;
    }

    /// Removes the line, if drawn, so that the next output starts on a clean line.
    pub fn clear(&mut self) {
        if self.drawn {
            let _ = write!(std::io::stderr().lock(), "\r\x1b[K");
            self.drawn = false;
        }
    }

    fn line(&self, name: &str) -> String {
        let chars = name.chars().count();
        let shown: String = if chars > NAME_WIDTH {
            let tail: String = name.chars().skip(chars - (NAME_WIDTH - 1)).collect();
            format!("…{tail}")
        } else {
            name.to_owned()
        };
        format!("{} {}/{} {shown}", self.verb, self.done, self.total)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_large_inputs_on_terminals_are_shown() {
        assert!(!Progress::new("converting", MIN_FILES, false).enabled);
        assert!(!Progress::new("converting", MIN_FILES - 1, true).enabled);
        assert!(Progress::new("converting", MIN_FILES, true).enabled);
    }

    #[test]
    fn long_names_keep_their_end() {
        let mut p = Progress::new("converting", 300, false);
        p.done = 7;
        let name = format!("{}/deployment.yaml", "d".repeat(80));
        let line = p.line(&name);
        assert!(line.starts_with("converting 7/300 …"), "{line}");
        assert!(line.ends_with("d/deployment.yaml"), "{line}");
        assert_eq!(line.chars().count(), "converting 7/300 ".len() + NAME_WIDTH);
    }
}
