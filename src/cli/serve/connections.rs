//! The connections the server accepts, bounded: at most [`MAX_CONNECTIONS`] open at once, and
//! none kept by a client that says nothing, or that sends a request so slowly (slowloris) or
//! waits so long that it only holds a place.
//!
//! axum serves connections with no timeout of its own: 1,100 silent connections (under the
//! usual limit of 1,024 open files) made the page time out for as long as they stayed open.
//! Here each connection's socket is wrapped ([`Guarded`]) with a timer that ends it when
//!
//! - it has sent nothing [`Limits::first_byte`] after it was opened, or
//! - it is idle: nothing read or written for [`Limits::idle`] (a keep-alive connection
//!   between requests), or
//! - a request has been coming in, or waiting for its answer, for longer than
//!   [`Limits::request`] without a byte written back (the longest search plus its wait for a
//!   turn, with room to spare; a count writes its progress four times a second).
//!
//! Accept errors (out of file descriptors, say) are said on stderr, and accepting pauses a
//! moment instead of spinning.
//!
//! A request that cannot be parsed never reaches the routes: hyper answers it itself, with
//! 400, 414 (URI too long) or 431 (header fields too large or too many) and an empty body.
//! The API promises a JSON body on every error, so [`Guarded`] writes those answers with one
//! ([`parser_error_with_body`]).

use std::future::Future;
use std::io;
use std::net::SocketAddr;
use std::pin::Pin;
use std::sync::Arc;
use std::task::{Context, Poll};
use std::time::Duration;

use axum::serve::Listener;
use tokio::io::{AsyncRead, AsyncWrite, ReadBuf};
use tokio::net::{TcpListener, TcpStream};
use tokio::sync::{OwnedSemaphorePermit, Semaphore};
use tokio::time::{Instant, Sleep};

/// The most connections open at once; more wait to be accepted.
pub const MAX_CONNECTIONS: usize = 512;

/// How long a connection may stay quiet or keep a request unanswered.
#[derive(Debug, Clone, Copy)]
pub struct Limits {
    /// A connection that has sent nothing this long after it was opened is ended.
    pub first_byte: Duration,
    /// Nothing read or written for this long ends the connection.
    pub idle: Duration,
    /// A request unanswered (bytes read, none written since) for this long ends it.
    pub request: Duration,
}

/// A listener that accepts at most [`MAX_CONNECTIONS`] connections at once, each
/// [`Guarded`].
pub struct GuardedListener {
    inner: TcpListener,
    open: Arc<Semaphore>,
    limits: Limits,
}

impl GuardedListener {
    pub fn new(inner: TcpListener, limits: Limits) -> GuardedListener {
        GuardedListener {
            inner,
            open: Arc::new(Semaphore::new(MAX_CONNECTIONS)),
            limits,
        }
    }
}

impl Listener for GuardedListener {
    type Io = Guarded;
    type Addr = SocketAddr;

    async fn accept(&mut self) -> (Guarded, SocketAddr) {
        let permit = Arc::clone(&self.open)
            .acquire_owned()
            .await
            .expect("the semaphore is never closed");
        loop {
            match self.inner.accept().await {
                Ok((stream, address)) => {
                    let _ = stream.set_nodelay(true);
                    return (Guarded::new(stream, permit, self.limits), address);
                }
                Err(error) if is_connection_error(&error) => {}
                Err(error) => {
                    eprintln!("xcover serve: cannot accept a connection: {error}");
                    tokio::time::sleep(Duration::from_millis(200)).await;
                }
            }
        }
    }

    fn local_addr(&self) -> io::Result<SocketAddr> {
        self.inner.local_addr()
    }
}

/// Errors of one connection that came and went, not of the listener.
fn is_connection_error(error: &io::Error) -> bool {
    matches!(
        error.kind(),
        io::ErrorKind::ConnectionRefused
            | io::ErrorKind::ConnectionAborted
            | io::ErrorKind::ConnectionReset
    )
}

/// A connection's socket, its place among the open connections (given back when it is
/// dropped), and the timer that ends it.
pub struct Guarded {
    stream: TcpStream,
    _place: OwnedSemaphorePermit,
    limits: Limits,
    timer: Pin<Box<Sleep>>,
    opened: Instant,
    /// Whether the client has sent anything yet.
    spoke: bool,
    last_activity: Instant,
    /// When bytes were first read after the last write: a request is coming in or waiting
    /// for its answer.
    unanswered_since: Option<Instant>,
    /// An answer being written in place of the one hyper handed over.
    substitute: Option<Substitute>,
}

/// The answer written in place of hyper's bodiless one, how much of it is written, and how
/// many bytes of hyper's it stands for (reported written once it is all out).
struct Substitute {
    bytes: Vec<u8>,
    written: usize,
    stands_for: usize,
}

/// For the head of an answer hyper's parser makes (a 400, 414 or 431 with an empty body; the
/// routes never send an error without a body), the same answer with a JSON body saying what
/// was wrong.
fn parser_error_with_body(head: &[u8]) -> Option<Vec<u8>> {
    let text = std::str::from_utf8(head).ok()?;
    if !text.ends_with("\r\n\r\n")
        || !text
            .to_ascii_lowercase()
            .contains("\r\ncontent-length: 0\r\n")
    {
        return None;
    }
    let (status, message) = match text.split(' ').nth(1)? {
        "400" => ("400 Bad Request", "the request is not well-formed HTTP/1.1"),
        "414" => (
            "414 URI Too Long",
            "the request's URI is too long; send a puzzle or problem in the body of a POST",
        ),
        "431" => (
            "431 Request Header Fields Too Large",
            "the request's header fields are too large or too many (at most 100 fields)",
        ),
        _ => return None,
    };
    let body = format!(r#"{{"error":"{message}","line":null,"cells":[],"kind":null}}"#);
    Some(
        format!(
            "HTTP/1.1 {status}\r\ncontent-type: application/json\r\ncontent-length: {}\r\n\
             connection: close\r\n\r\n{body}",
            body.len()
        )
        .into_bytes(),
    )
}

impl Guarded {
    fn new(stream: TcpStream, place: OwnedSemaphorePermit, limits: Limits) -> Guarded {
        let now = Instant::now();
        Guarded {
            stream,
            _place: place,
            limits,
            timer: Box::pin(tokio::time::sleep_until(now + limits.first_byte)),
            opened: now,
            spoke: false,
            last_activity: now,
            unanswered_since: None,
            substitute: None,
        }
    }

    /// Writes hyper's bytes, or, for a bodiless parser error, the answer that stands for them.
    fn write_answer(&mut self, context: &mut Context<'_>, bytes: &[u8]) -> Poll<io::Result<usize>> {
        if self.substitute.is_none()
            && let Some(answer) = parser_error_with_body(bytes)
        {
            self.substitute = Some(Substitute {
                bytes: answer,
                written: 0,
                stands_for: bytes.len(),
            });
        }
        let Some(substitute) = &mut self.substitute else {
            return Pin::new(&mut self.stream).poll_write(context, bytes);
        };
        while substitute.written < substitute.bytes.len() {
            let rest = &substitute.bytes[substitute.written..];
            match Pin::new(&mut self.stream).poll_write(context, rest) {
                Poll::Ready(Ok(0)) => return Poll::Ready(Ok(0)),
                Poll::Ready(Ok(count)) => substitute.written += count,
                other => return other,
            }
        }
        let stands_for = substitute.stands_for;
        self.substitute = None;
        Poll::Ready(Ok(stands_for))
    }

    /// When the connection ends unless something happens first.
    fn deadline(&self) -> Instant {
        match self.unanswered_since {
            // While a request is answered, its search may keep the connection quiet.
            Some(since) => since + self.limits.request,
            None if !self.spoke => self.opened + self.limits.first_byte,
            None => self.last_activity + self.limits.idle,
        }
    }

    fn reset_timer(&mut self) {
        let deadline = self.deadline();
        self.timer.as_mut().reset(deadline);
    }

    /// After a write: bytes written answer the request, and are activity.
    fn wrote(&mut self, written: &Poll<io::Result<usize>>) {
        if let Poll::Ready(Ok(count)) = written
            && *count > 0
        {
            self.last_activity = Instant::now();
            self.unanswered_since = None;
            self.reset_timer();
        }
    }

    /// Whether the timer has run out (and arms it to wake this task when it does).
    fn expired(&mut self, context: &mut Context<'_>) -> bool {
        if self.timer.as_mut().poll(context).is_ready() {
            // The deadline may have moved on since the timer was set.
            if Instant::now() >= self.deadline() {
                return true;
            }
            self.reset_timer();
            return self.timer.as_mut().poll(context).is_ready();
        }
        false
    }
}

impl AsyncRead for Guarded {
    fn poll_read(
        mut self: Pin<&mut Self>,
        context: &mut Context<'_>,
        buffer: &mut ReadBuf<'_>,
    ) -> Poll<io::Result<()>> {
        let before = buffer.filled().len();
        match Pin::new(&mut self.stream).poll_read(context, buffer) {
            Poll::Ready(Ok(())) => {
                if buffer.filled().len() > before {
                    let now = Instant::now();
                    self.last_activity = now;
                    self.spoke = true;
                    self.unanswered_since.get_or_insert(now);
                    self.reset_timer();
                }
                Poll::Ready(Ok(()))
            }
            Poll::Ready(Err(error)) => Poll::Ready(Err(error)),
            Poll::Pending => {
                if self.expired(context) {
                    return Poll::Ready(Err(io::Error::new(
                        io::ErrorKind::TimedOut,
                        "the connection was idle, or its request too slow",
                    )));
                }
                Poll::Pending
            }
        }
    }
}

impl AsyncWrite for Guarded {
    fn poll_write(
        mut self: Pin<&mut Self>,
        context: &mut Context<'_>,
        bytes: &[u8],
    ) -> Poll<io::Result<usize>> {
        let written = self.write_answer(context, bytes);
        self.wrote(&written);
        written
    }

    fn poll_flush(mut self: Pin<&mut Self>, context: &mut Context<'_>) -> Poll<io::Result<()>> {
        Pin::new(&mut self.stream).poll_flush(context)
    }

    fn poll_shutdown(mut self: Pin<&mut Self>, context: &mut Context<'_>) -> Poll<io::Result<()>> {
        Pin::new(&mut self.stream).poll_shutdown(context)
    }

    fn poll_write_vectored(
        mut self: Pin<&mut Self>,
        context: &mut Context<'_>,
        buffers: &[io::IoSlice<'_>],
    ) -> Poll<io::Result<usize>> {
        // A parser's error answer is one buffer (its head); it is looked for there.
        let first = buffers.iter().find(|buffer| !buffer.is_empty());
        let written = match first {
            Some(first) if first.len() == buffers.iter().map(|b| b.len()).sum::<usize>() => {
                self.write_answer(context, first)
            }
            _ => Pin::new(&mut self.stream).poll_write_vectored(context, buffers),
        };
        self.wrote(&written);
        written
    }

    fn is_write_vectored(&self) -> bool {
        self.stream.is_write_vectored()
    }
}
