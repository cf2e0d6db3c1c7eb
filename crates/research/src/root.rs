//! Finding the operator repo root: `$DAVE_REPO_ROOT`, then `$PA_REPO_ROOT`, else the
//! nearest ancestor of the working directory that holds a `.git` entry (dir or file).

use crate::error::{Error, Result};
use std::ffi::OsString;
use std::path::{Path, PathBuf};

/// Environment variables that override discovery, in priority order.
pub const ROOT_ENV_VARS: [&str; 2] = ["DAVE_REPO_ROOT", "PA_REPO_ROOT"];

/// Resolve the repo root. `var` reads an environment variable (injected for tests).
pub fn discover(var: impl Fn(&str) -> Option<OsString>, cwd: &Path) -> Result<PathBuf> {
    for name in ROOT_ENV_VARS {
        if let Some(value) = var(name).filter(|v| !v.is_empty()) {
            let path = PathBuf::from(value);
            return Ok(if path.is_absolute() {
                path
            } else {
                cwd.join(path)
            });
        }
    }
    cwd.ancestors()
        .find(|dir| dir.join(".git").symlink_metadata().is_ok())
        .map(Path::to_path_buf)
        .ok_or_else(|| {
            Error::Operational(format!(
                "no repo root: no .git entry in {} or any parent (set PA_REPO_ROOT)",
                cwd.display()
            ))
        })
}
