"""The page's static server on loopback (scripts/serve.sh runs it): Python's http.server, with a
request line of up to 1 MiB instead of its 64 KiB, so a page's address that carries a long state
(a pasted status, every parameter) is served rather than answered 414; a longer one gets a 414
that says why. Every answer carries Access-Control-Allow-Origin: *, so that a page on another
origin (a blog post with the <midpoint-explainer> snippet) can load the module and the WASM.

    python3 scripts/serve.py PORT   (serves the current directory on 127.0.0.1:PORT)
"""
import http.server
import sys

MAX_LINE = 1 << 20


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


if __name__ == "__main__":
    port = int(sys.argv[1])
    http.server.ThreadingHTTPServer(("127.0.0.1", port), Handler).serve_forever()
