//! Length-delimited framing for protobuf streams (watch): each frame is a four-byte
//! big-endian length, then that many bytes (Go's `framer.NewLengthDelimitedFrameWriter`
//! and reader).

use std::io::{self, Read, Write};

/// Frames above this size are refused when reading, so a corrupt length cannot make the
/// reader allocate gigabytes (Go's API server caps requests far below it).
pub const MAX_FRAME_LEN: usize = 256 * 1024 * 1024;

/// Writes one frame.
pub fn write_frame(w: &mut impl Write, frame: &[u8]) -> io::Result<()> {
    let len = u32::try_from(frame.len())
        .map_err(|_| io::Error::new(io::ErrorKind::InvalidInput, "frame longer than 4 GiB"))?;
    w.write_all(&len.to_be_bytes())?;
    w.write_all(frame)
}

/// Reads frames from a byte stream.
///
/// ```
/// use apimachinery::proto::{LengthDelimitedFrameReader, write_frame};
///
/// let mut stream = Vec::new();
/// write_frame(&mut stream, b"first")?;
/// write_frame(&mut stream, b"second")?;
/// let frames: Vec<Vec<u8>> = LengthDelimitedFrameReader::new(&stream[..]).collect::<Result<_, _>>()?;
/// assert_eq!(frames, [b"first".to_vec(), b"second".to_vec()]);
/// # Ok::<(), std::io::Error>(())
/// ```
#[derive(Debug)]
pub struct LengthDelimitedFrameReader<R> {
    reader: R,
    done: bool,
}

impl<R: Read> LengthDelimitedFrameReader<R> {
    /// Reads frames from `reader`.
    pub fn new(reader: R) -> Self {
        LengthDelimitedFrameReader {
            reader,
            done: false,
        }
    }

    /// The next frame; `Ok(None)` at a clean end of stream (between frames).
    pub fn read_frame(&mut self) -> io::Result<Option<Vec<u8>>> {
        let mut header = [0u8; 4];
        let mut filled = 0;
        while filled < header.len() {
            match self.reader.read(&mut header[filled..]) {
                Ok(0) if filled == 0 => return Ok(None),
                Ok(0) => {
                    return Err(io::Error::new(
                        io::ErrorKind::UnexpectedEof,
                        "stream ends inside a frame header",
                    ));
                }
                Ok(n) => filled += n,
                Err(e) if e.kind() == io::ErrorKind::Interrupted => {}
                Err(e) => return Err(e),
            }
        }
        let len = u32::from_be_bytes(header) as usize;
        if len > MAX_FRAME_LEN {
            return Err(io::Error::new(
                io::ErrorKind::InvalidData,
                format!("frame of {len} bytes exceeds the limit of {MAX_FRAME_LEN}"),
            ));
        }
        let mut frame = Vec::new();
        (&mut self.reader)
            .take(len as u64)
            .read_to_end(&mut frame)?;
        if frame.len() != len {
            return Err(io::Error::new(
                io::ErrorKind::UnexpectedEof,
                format!("stream ends after {} of a {len}-byte frame", frame.len()),
            ));
        }
        Ok(Some(frame))
    }
}

impl<R: Read> Iterator for LengthDelimitedFrameReader<R> {
    type Item = io::Result<Vec<u8>>;

    fn next(&mut self) -> Option<Self::Item> {
        if self.done {
            return None;
        }
        match self.read_frame() {
            Ok(Some(frame)) => Some(Ok(frame)),
            Ok(None) => {
                self.done = true;
                None
            }
            Err(e) => {
                self.done = true;
                Some(Err(e))
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn truncated_streams_are_errors() {
        let mut stream = Vec::new();
        write_frame(&mut stream, b"abcdef").unwrap();
        assert_eq!(&stream[..4], &[0, 0, 0, 6]);
        for cut in 1..stream.len() {
            let mut reader = LengthDelimitedFrameReader::new(&stream[..cut]);
            assert!(reader.read_frame().is_err(), "cut at {cut}");
        }
        let mut reader = LengthDelimitedFrameReader::new(&[0xff, 0xff, 0xff, 0xff][..]);
        assert_eq!(
            reader.read_frame().unwrap_err().kind(),
            io::ErrorKind::InvalidData
        );
        assert!(
            LengthDelimitedFrameReader::new(&[][..])
                .read_frame()
                .unwrap()
                .is_none()
        );
    }
}
