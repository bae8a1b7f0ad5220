#!/usr/bin/env python3
"""A webhook receiver for the tests, on 127.0.0.1: verifies every delivery's signature with the
reference Standard Webhooks package from PyPI (`standardwebhooks`, an implementation the
registry did not write) and answers by script.

Prints {"port": N} on its first line. Controlled over HTTP on the same port:
  POST /control {"secrets": [...], "script": [...]}  secrets to verify with; answers to give,
      in order, the last one repeating: "200", "500", "410" (any status), "hang" (never
      answer), "slow" (200 with its body trickled over half a second), "close" (close the
      connection mid-answer), "redirect:URL" (302 to URL).
  GET /control/log  every delivery so far: id, timestamp, body, the answer given, and for each
      secret whether its signature verified (verified_by: indexes into secrets).
Every other POST is a delivery.
"""

import json
import os
import sys
import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

from standardwebhooks import Webhook, WebhookVerificationError

state = {"secrets": [], "script": ["200"], "log": []}
lock = threading.Lock()


def next_answer():
    with lock:
        script = state["script"]
        return script.pop(0) if len(script) > 1 else script[0]


class Receiver(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"

    def log_message(self, *args):
        pass

    def reply(self, status, body=b"", headers=()):
        self.send_response(status)
        for name, value in headers:
            self.send_header(name, value)
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def do_GET(self):
        if self.path == "/control/log":
            with lock:
                body = json.dumps(state["log"]).encode()
            self.reply(200, body, [("Content-Type", "application/json")])
        else:
            self.reply(404)

    def do_POST(self):
        body = self.rfile.read(int(self.headers.get("Content-Length", "0")))
        if self.path == "/control":
            update = json.loads(body)
            with lock:
                state["secrets"] = update.get("secrets", state["secrets"])
                state["script"] = update.get("script", state["script"]) or ["200"]
            self.reply(200)
            return
        headers = {name.lower(): value for name, value in self.headers.items()}
        with lock:
            secrets = list(state["secrets"])
        verified_by = []
        for index, secret in enumerate(secrets):
            try:
                Webhook(secret).verify(body, headers)
                verified_by.append(index)
            except WebhookVerificationError:
                pass
        answer = next_answer()
        with lock:
            state["log"].append({
                "id": headers.get("webhook-id"), "timestamp": headers.get("webhook-timestamp"),
                "signature": headers.get("webhook-signature"), "body": body.decode("utf-8", "replace"),
                "path": self.path, "answer": answer, "verified_by": verified_by, "at": time.time(),
            })
        if answer == "hang":
            time.sleep(60)
            return
        if answer == "slow":
            self.send_response(200)
            self.send_header("Content-Length", "10")
            self.end_headers()
            for byte in b"slowly ok\n":
                self.wfile.write(bytes([byte]))
                self.wfile.flush()
                time.sleep(0.05)
            return
        if answer == "close":
            self.wfile.write(b"HTTP/1.1 200 OK\r\nContent-Length: 100\r\n\r\npartial")
            self.wfile.flush()
            self.close_connection = True
            self.connection.shutdown(2)
            return
        if answer.startswith("redirect:"):
            self.reply(302, b"", [("Location", answer[len("redirect:"):])])
            return
        self.reply(int(answer), b"answered " + answer.encode())


def exit_when_stdin_closes():
    """The test holds the receiver's stdin open; when the test process ends, so does this."""
    sys.stdin.buffer.read()
    os._exit(0)


def main():
    server = ThreadingHTTPServer(("127.0.0.1", 0), Receiver)
    server.daemon_threads = True
    print(json.dumps({"port": server.server_address[1]}), flush=True)
    threading.Thread(target=exit_when_stdin_closes, daemon=True).start()
    server.serve_forever()


if __name__ == "__main__":
    sys.exit(main())
