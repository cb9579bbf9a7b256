//! Scratch folders for tests that write files: each named after the test and the process,
//! emptied first, and removed when the test ends, passed or failed, so that runs leave
//! nothing behind in the system's temporary folder.

#![allow(dead_code)] // not every test file that includes `common` writes files

use std::ops::Deref;
use std::path::{Path, PathBuf};

/// A folder under the temporary folder, removed with everything in it when dropped.
pub struct ScratchDir(PathBuf);

impl ScratchDir {
    /// A new empty folder `xcover-NAME-PID`.
    pub fn new(name: &str) -> ScratchDir {
        let dir = std::env::temp_dir().join(format!("xcover-{name}-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).unwrap();
        ScratchDir(dir)
    }
}

impl Deref for ScratchDir {
    type Target = Path;

    fn deref(&self) -> &Path {
        &self.0
    }
}

impl Drop for ScratchDir {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

impl AsRef<Path> for ScratchDir {
    fn as_ref(&self) -> &Path {
        &self.0
    }
}
