#![doc = include_str!("../README.md")]

use std::borrow::Cow;
use std::fs::{File, OpenOptions};
use std::io::{self, Read};
use std::path::Path;

/// Why a bounded read failed.
#[derive(Debug, thiserror::Error)]
pub enum ReadError {
    /// More than `limit` bytes were available; nothing is returned.
    #[error("larger than the {} limit", human_bytes(*.limit))]
    TooLarge { limit: u64 },
    /// The path names something other than a regular file (a FIFO, a device,
    /// a directory, a socket).
    #[error("not a regular file ({kind})")]
    NotRegular { kind: &'static str },
    /// The path is a symbolic link and links are not followed here.
    #[error("is a symbolic link (not followed)")]
    Symlink,
    /// The operating system refused (not found, permission, …).
    #[error("{0}")]
    Io(#[from] io::Error),
}

impl ReadError {
    /// True when the file does not exist.
    pub fn is_not_found(&self) -> bool {
        matches!(self, ReadError::Io(e) if e.kind() == io::ErrorKind::NotFound)
    }

    /// True when the input (not the machine) is at fault: too large, not a
    /// regular file, a link. I/O failures are the machine's.
    pub fn is_input_fault(&self) -> bool {
        !matches!(self, ReadError::Io(_))
    }
}

/// Whether [`read_file`] and [`open_regular`] follow a symbolic link.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Follow {
    Yes,
    /// Refuse a link in the last path component (`O_NOFOLLOW`).
    No,
}

/// Reads `reader` to its end, failing with [`ReadError::TooLarge`] as soon as
/// more than `limit` bytes arrive (at most `limit + 1` bytes are ever held).
pub fn read_capped(reader: impl Read, limit: u64) -> Result<Vec<u8>, ReadError> {
    let mut buf = Vec::new();
    reader.take(limit.saturating_add(1)).read_to_end(&mut buf)?;
    if buf.len() as u64 > limit {
        return Err(ReadError::TooLarge { limit });
    }
    Ok(buf)
}

/// Opens `path` with `options` without blocking on a FIFO and checks that it
/// is a regular file; with [`Follow::No`] a symbolic link is refused.
pub fn open_regular(
    path: &Path,
    options: &mut OpenOptions,
    follow: Follow,
) -> Result<File, ReadError> {
    #[cfg(unix)]
    {
        use std::os::unix::fs::OpenOptionsExt;
        let mut flags = libc::O_NONBLOCK;
        if follow == Follow::No {
            flags |= libc::O_NOFOLLOW;
        }
        options.custom_flags(flags);
    }
    #[cfg(not(unix))]
    if follow == Follow::No
        && std::fs::symlink_metadata(path).is_ok_and(|m| m.file_type().is_symlink())
    {
        return Err(ReadError::Symlink);
    }
    let file = match options.open(path) {
        Ok(f) => f,
        Err(e) => {
            // O_NOFOLLOW on a link fails with ELOOP, a FIFO without a reader
            // opened for writing with ENXIO: say what the path is instead.
            if let Ok(m) = std::fs::symlink_metadata(path) {
                if m.file_type().is_symlink() {
                    if follow == Follow::No {
                        return Err(ReadError::Symlink);
                    }
                } else if !m.is_file() {
                    return Err(ReadError::NotRegular {
                        kind: file_kind(&m),
                    });
                }
            }
            return Err(ReadError::Io(e));
        }
    };
    let kind = file_kind(&file.metadata()?);
    if kind != "regular file" {
        return Err(ReadError::NotRegular { kind });
    }
    Ok(file)
}

/// Reads the regular file at `path`, at most `limit` bytes (see [`open_regular`]).
pub fn read_file(path: &Path, limit: u64, follow: Follow) -> Result<Vec<u8>, ReadError> {
    let file = open_regular(path, OpenOptions::new().read(true), follow)?;
    // A file that says it is too large is refused before a byte is read.
    if file.metadata()?.len() > limit {
        return Err(ReadError::TooLarge { limit });
    }
    read_capped(file, limit)
}

fn file_kind(m: &std::fs::Metadata) -> &'static str {
    let t = m.file_type();
    if t.is_file() {
        return "regular file";
    }
    if t.is_dir() {
        return "directory";
    }
    #[cfg(unix)]
    {
        use std::os::unix::fs::FileTypeExt;
        if t.is_fifo() {
            return "FIFO";
        }
        if t.is_char_device() {
            return "character device";
        }
        if t.is_block_device() {
            return "block device";
        }
        if t.is_socket() {
            return "socket";
        }
    }
    "special file"
}

/// `10 MiB`, `512 KiB`, `100 bytes`.
pub fn human_bytes(n: u64) -> String {
    if n >= 1 << 20 && n.is_multiple_of(1 << 20) {
        format!("{} MiB", n >> 20)
    } else if n >= 1 << 10 && n.is_multiple_of(1 << 10) {
        format!("{} KiB", n >> 10)
    } else {
        format!("{n} bytes")
    }
}

/// `text` made safe to print on a terminal: every control character but
/// newline and tab (C0, DEL, C1 — so ESC and with it every CSI/OSC sequence,
/// carriage return, backspace, bell) and every bidirectional override or
/// isolate is replaced by a visible escape (`\x1b`, `\u{202e}`). Borrowed
/// when there is nothing to replace.
pub fn terminal_safe(text: &str) -> Cow<'_, str> {
    if !text.chars().any(unsafe_char) {
        return Cow::Borrowed(text);
    }
    let mut out = String::with_capacity(text.len() + 16);
    for c in text.chars() {
        if unsafe_char(c) {
            let n = u32::from(c);
            if n < 0x100 {
                out.push_str(&format!("\\x{n:02x}"));
            } else {
                out.push_str(&format!("\\u{{{n:04x}}}"));
            }
        } else {
            out.push(c);
        }
    }
    Cow::Owned(out)
}

fn unsafe_char(c: char) -> bool {
    (c.is_control() && c != '\n' && c != '\t')
        || matches!(c, '\u{202a}'..='\u{202e}' | '\u{2066}'..='\u{2069}' | '\u{200e}' | '\u{200f}')
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::io::Write;

    #[test]
    fn capped_reads_stop_at_the_limit() {
        assert_eq!(read_capped(&b"abc"[..], 3).unwrap(), b"abc");
        let err = read_capped(io::repeat(0), 1000).unwrap_err();
        assert!(matches!(err, ReadError::TooLarge { limit: 1000 }), "{err}");
        assert!(err.to_string().contains("1000 bytes"), "{err}");
    }

    #[test]
    fn files_must_be_regular_and_small() {
        let dir = tempfile::tempdir().unwrap();
        let p = dir.path().join("f");
        std::fs::File::create(&p)
            .unwrap()
            .write_all(b"hello")
            .unwrap();
        assert_eq!(read_file(&p, 5, Follow::No).unwrap(), b"hello");
        assert!(matches!(
            read_file(&p, 4, Follow::No).unwrap_err(),
            ReadError::TooLarge { .. }
        ));
        let e = read_file(dir.path(), 5, Follow::Yes).unwrap_err();
        assert!(matches!(e, ReadError::NotRegular { .. }), "{e}");
        assert!(
            read_file(&dir.path().join("none"), 5, Follow::Yes)
                .unwrap_err()
                .is_not_found()
        );
    }

    #[cfg(unix)]
    #[test]
    fn devices_fifos_and_links_are_refused_without_blocking() {
        let dir = tempfile::tempdir().unwrap();
        let e = read_file(Path::new("/dev/zero"), 1 << 20, Follow::Yes).unwrap_err();
        assert!(e.to_string().contains("character device"), "{e}");
        let link = dir.path().join("link");
        std::os::unix::fs::symlink("/dev/zero", &link).unwrap();
        assert!(matches!(
            read_file(&link, 10, Follow::No).unwrap_err(),
            ReadError::Symlink
        ));
        let fifo = dir.path().join("fifo");
        let made = std::process::Command::new("mkfifo").arg(&fifo).status();
        if made.is_ok_and(|s| s.success()) {
            // Without O_NONBLOCK this open would wait for a writer forever.
            let e = read_file(&fifo, 10, Follow::No).unwrap_err();
            assert!(e.to_string().contains("FIFO"), "{e}");
        }
    }

    #[test]
    fn terminal_escapes_are_neutralised() {
        assert!(matches!(terminal_safe("plain\ttext\n"), Cow::Borrowed(_)));
        let hostile = "a\x1b]52;c;ZXZpbA==\x07b\x1b[2J\x1b[?1049h\r\u{9b}31m\u{202e}x";
        let safe = terminal_safe(hostile);
        assert!(!safe.chars().any(unsafe_char), "{safe}");
        assert_eq!(
            safe,
            "a\\x1b]52;c;ZXZpbA==\\x07b\\x1b[2J\\x1b[?1049h\\x0d\\x9b31m\\u{202e}x"
        );
    }
}
