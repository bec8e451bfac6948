"""The page's static server on loopback (scripts/serve.sh runs it): Python's http.server, with a
request line of up to 1 MiB instead of its 64 KiB, so a page's address that carries a long state
(a pasted status, every parameter) is served rather than answered 414; a longer one gets a 414
that says why. Every answer carries Access-Control-Allow-Origin: *, so that a page on another
origin (a blog post with the <midpoint-explainer> snippet) can load the module and the WASM.

    python3 scripts/serve.py PORT   (serves the current directory on 127.0.0.1:PORT; with PORT 0,
                                     on a free port the kernel picks, printed on the first line)
"""
import http.server
import sys

MAX_LINE = 1 << 20
# What an over-long request may still send before its 414 is read and dropped.
DRAIN = 64 << 20


class Handler(http.server.SimpleHTTPRequestHandler):
    def end_headers(self):
        self.send_header("Access-Control-Allow-Origin", "*")
        super().end_headers()

    def handle_one_request(self):
        # http.server's own handling, with a longer request line.
        try:
            self.raw_requestline = self.rfile.readline(MAX_LINE + 1)
            if len(self.raw_requestline) > MAX_LINE:
                self.requestline = ""
                self.request_version = ""
                self.command = ""
                # The rest of the request read and dropped first (at most DRAIN bytes): closed
                # with it unread, the socket would be reset, and the browser could lose the
                # answer and show a reset connection instead of the reason.
                self.drain()
                self.send_error(
                    414,
                    "The address is longer than this server reads (1 MiB): "
                    "shorten the page's state (fewer parameters, a shorter paste)",
                )
                return
            if not self.raw_requestline:
                self.close_connection = True
                return
            if not self.parse_request():
                return
            method = getattr(self, "do_" + self.command, None)
            if method is None:
                self.send_error(501, "Unsupported method (%r)" % self.command)
                return
            method()
            self.wfile.flush()
        except TimeoutError as e:
            self.log_error("Request timed out: %r", e)
            self.close_connection = True

    def drain(self):
        """Reads the rest of an over-long request line and its headers, up to DRAIN bytes."""
        left = DRAIN
        in_line = True
        while left > 0:
            chunk = self.rfile.readline(min(left, MAX_LINE))
            left -= len(chunk)
            if not chunk:
                return
            if chunk.endswith(b"\n"):
                if not in_line and chunk in (b"\r\n", b"\n"):
                    return
                in_line = False


if __name__ == "__main__":
    port = int(sys.argv[1])
    server = http.server.ThreadingHTTPServer(("127.0.0.1", port), Handler)
    if port == 0:
        # Bound already: a caller reads the port here, with no window in which another process
        # could take it.
        print(f"serving on 127.0.0.1:{server.server_address[1]}", flush=True)
    server.serve_forever()
