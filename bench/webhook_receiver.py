#!/usr/bin/env python3
"""The bench's webhook receiver, on 127.0.0.1: answers every delivery 204 at once and records
when it arrived, so bench/webhooks.py can time commit → receipt.

  webhook_receiver.py      prints {"port": N} on its first line, then serves until killed

Controlled over HTTP on the same port:
  POST /control {"secret": "whsec_…"}  the secret to verify signatures with (optional)
  GET  /control/count                  {"ids": distinct webhook-ids so far} (cheap to poll)
  GET  /control/log                    every delivery so far, in arrival order:
      {"at": unix seconds, "id": webhook-id, "attributes_type": …, "version": …, "verified": bool|null}
Every other POST is a delivery.

The arrival time is taken before the body is parsed or anything verified, on the same clock
(time.time) the publisher uses. Signatures are verified with the reference `standardwebhooks`
package when it is importable (deploy/dev.sh installs it into .build/webhook-tools); without
it `verified` is null. Verifying happens after the answer is sent, so it never slows a delivery.
"""

import json
import sys
import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

try:
    from standardwebhooks import Webhook, WebhookVerificationError
except ImportError:  # verification is a bonus here; the durability test is where it is required
    Webhook = None

state = {"secret": None, "log": [], "ids": set()}
lock = threading.Lock()


class Receiver(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"

    def log_message(self, *args):
        pass

    def reply(self, status, body=b""):
        self.send_response(status)
        self.send_header("Content-Length", str(len(body)))
        if body:
            self.send_header("Content-Type", "application/json")
        self.end_headers()
        self.wfile.write(body)
        self.wfile.flush()

    def do_GET(self):
        with lock:
            if self.path == "/control/count":
                body = json.dumps({"ids": len(state["ids"])}).encode()
            elif self.path == "/control/log":
                body = json.dumps(state["log"]).encode()
            else:
                body = None
        self.reply(200, body) if body is not None else self.reply(404)

    def do_POST(self):
        body = self.rfile.read(int(self.headers.get("Content-Length", "0")))
        arrived = time.time()
        if self.path == "/control":
            update = json.loads(body)
            with lock:
                state["secret"] = update.get("secret")
            self.reply(200)
            return
        self.reply(204)
        headers = {name.lower(): value for name, value in self.headers.items()}
        with lock:
            state["ids"].add(headers.get("webhook-id"))
        try:
            event = json.loads(body)
        except ValueError:
            event = {}
        with lock:
            secret = state["secret"]
        verified = None
        if Webhook is not None and secret:
            try:
                Webhook(secret).verify(body, headers)
                verified = True
            except WebhookVerificationError:
                verified = False
        entry = {"at": arrived, "id": headers.get("webhook-id"), "attributes_type": event.get("attributes_type"),
                 "version": event.get("version"), "verified": verified}
        with lock:
            state["log"].append(entry)


def main():
    server = ThreadingHTTPServer(("127.0.0.1", 0), Receiver)
    server.daemon_threads = True
    print(json.dumps({"port": server.server_address[1]}), flush=True)
    server.serve_forever()


if __name__ == "__main__":
    sys.exit(main())
