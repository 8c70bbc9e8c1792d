"""Schemathesis hooks for scripts/contract-test.sh.

What a request names must exist for the server to take it, and the API's document cannot say what
exists: a handle with no account, or a conversation that is not the sharer's, is 422, as it should be.
So the valid requests Schemathesis draws name the accounts and the conversation the run seeded, as
its advice for identifiers is, and each share and reply carries an `Idempotency-Key` of its own (the
same key with another body is 422 too, as the idempotency-key draft asks). Only valid requests are
changed, and only into other valid ones; a request drawn to break a rule is sent as drawn.
"""

import os
import re
import uuid

import schemathesis

HANDLE = re.compile(r"^@?[A-Za-z0-9_]{1,32}$")
RECIPIENT = re.compile(
    r"^\s*(@[A-Za-z0-9_]{1,32}|conversation:[0-9A-Fa-f]{8}-[0-9A-Fa-f]{4}-[0-9A-Fa-f]{4}-[0-9A-Fa-f]{4}-"
    r"[0-9A-Fa-f]{12})\s*$"
)
KEY = re.compile(r"^[!-~]{1,255}$")
PEER = os.environ.get("SHAREPIPE_CONTRACT_PEER", "bob")
CONVERSATION = os.environ.get("SHAREPIPE_CONTRACT_CONVERSATION", "")


def _recipient(value):
    match = isinstance(value, str) and RECIPIENT.match(value)
    if not match:
        return value
    if match.group(1).startswith("@") or not CONVERSATION:
        return "@" + PEER
    return "conversation:" + CONVERSATION


@schemathesis.hook
def before_call(context, case, kwargs):
    # A request drawn to break a rule is refused whatever it names; and one drawn without a header is
    # sent without it only while it stays negative.
    if case.meta is None or not case.meta.generation.mode.is_positive:
        return
    headers = case.headers or {}
    for name in list(headers):
        if name.lower() == "idempotency-key" and isinstance(headers[name], str) and KEY.match(headers[name]):
            headers[name] = str(uuid.uuid4())
    body = case.body
    if not isinstance(body, dict):
        return
    if (case.method.upper(), case.path) == ("POST", "/v1/shares") and isinstance(body.get("recipients"), list):
        body["recipients"] = [_recipient(item) for item in body["recipients"]]
    elif (case.method.upper(), case.path) == ("POST", "/v1/conversations") and isinstance(body.get("members"), list):
        body["members"] = [PEER if isinstance(item, str) and HANDLE.match(item) else item for item in body["members"]]
    elif (case.method.upper(), case.path) == ("POST", "/v1/conversations/{id}/members"):
        if isinstance(body.get("handle"), str) and HANDLE.match(body["handle"]):
            body["handle"] = PEER
