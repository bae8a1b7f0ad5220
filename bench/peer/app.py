"""The publish peer: FastAPI and asyncpg running the registry's own next-free publish statement
(Sources/RegistryPostgres/SQL/store_publish_next_free.sql) once per request, with the values
pgbench's baseline sends, and nothing else: no token, no validation, no review, no audit event,
no transaction around it. bench/run.sh starts it with uvicorn, one worker per core, on loopback,
and the registry's publish row is compared with it ("≥ 3× the peer").

Environment: PEER_DATABASE_URL, PEER_PUBLISH_SQL (the statement's file), PEER_TOKEN_ID,
PEER_CREATED_BY, PEER_CONTENT_HASH (hex) and PEER_FIELD_PATHS (a JSON array): what the service
would write for the bench's one schema text.
"""

import json
import os

import asyncpg
from fastapi import FastAPI, Request
from fastapi.responses import Response


def statement() -> str:
    with open(os.environ["PEER_PUBLISH_SQL"], encoding="utf-8") as file:
        return "\n".join(line for line in file.read().splitlines() if not line.lstrip().startswith("--"))


PUBLISH = statement()
APPLICATION = "SELECT id FROM applications WHERE code = $1"
TOKEN_ID = int(os.environ["PEER_TOKEN_ID"])
CREATED_BY = os.environ["PEER_CREATED_BY"]
CONTENT_HASH = bytes.fromhex(os.environ["PEER_CONTENT_HASH"])
FIELD_PATHS = os.environ["PEER_FIELD_PATHS"]

app = FastAPI()
state: dict = {"applications": {}}


@app.on_event("startup")
async def connect() -> None:
    # The service's sessions plan every statement generically (PGConnection.connect).
    state["pool"] = await asyncpg.create_pool(
        os.environ["PEER_DATABASE_URL"], min_size=2, max_size=32,
        server_settings={"plan_cache_mode": "force_generic_plan"})


@app.on_event("shutdown")
async def disconnect() -> None:
    await state["pool"].close()


@app.post("/api/live_activity_schemas")
async def publish(request: Request) -> Response:
    body = json.loads(await request.body())
    code = body["application"]
    async with state["pool"].acquire() as connection:
        application = state["applications"].get(code)
        if application is None:
            application = await connection.fetchval(APPLICATION, code)
            state["applications"][code] = application
        row = await connection.fetchrow(
            PUBLISH, application, body["attributesType"], body["jsonSchema"], TOKEN_ID, CREATED_BY, False, 100,
            CONTENT_HASH, "{}", "", FIELD_PATHS)
    if row is None:
        return Response(status_code=409)
    return Response(json.dumps({"attributesType": body["attributesType"]}), media_type="application/json")
