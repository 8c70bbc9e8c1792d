"""Schemathesis hooks for scripts/contract-test.sh.

What a request names must exist for the server to take it, and the API's document cannot say what
exists: a handle with no account, a conversation that is not the sharer's, or a file that is not the
sharer's complete upload, is 422, as it should be.
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
UPLOAD = os.environ.get("SHAREPIPE_CONTRACT_UPLOAD", "")
SHA256 = re.compile(r"^[0-9a-f]{64}$")


def _recipient(value):
    match = isinstance(value, str) and RECIPIENT.match(value)
    if not match:
        return value
    if match.group(1).startswith("@") or not CONVERSATION:
        return "@" + PEER
    return "conversation:" + CONVERSATION


# A share's text members and their limits. The server measures text as a person reads it — control
# characters removed, the ends trimmed, in characters — and the document's maxLength counts code
# points as sent.
SHARE_TEXT_LIMITS = {("note",): 2000, ("text",): 10000, ("provided", "title"): 300,
                     ("provided", "summary"): 1000, ("provided", "siteName"): 200}


def _over_limit_as_read(body):
    """A share drawn with text over its maxLength stays over it as the server reads it: text over the
    limit only by control characters, surrounding whitespace or scalars that join into one character
    gets as many letters more as the limit. It breaks the same rule, only more."""
    for path, limit in SHARE_TEXT_LIMITS.items():
        holder = body
        for key in path[:-1]:
            holder = holder.get(key) if isinstance(holder, dict) else None
        if isinstance(holder, dict) and isinstance(holder.get(path[-1]), str) and len(holder[path[-1]]) > limit:
            holder[path[-1]] += "x" * limit


@schemathesis.hook
def before_call(context, case, kwargs):
    # A request drawn to break a rule is refused whatever it names; and one drawn without a header is
    # sent without it only while it stays negative.
    if case.meta is None or not case.meta.generation.mode.is_positive:
        if (case.method.upper(), case.path) == ("POST", "/v1/shares") and isinstance(case.body, dict):
            _over_limit_as_read(case.body)
        return
    headers = case.headers or {}
    for name in list(headers):
        if name.lower() == "idempotency-key" and isinstance(headers[name], str) and KEY.match(headers[name]):
            headers[name] = str(uuid.uuid4())
    body = case.body
    if not isinstance(body, dict):
        return
    if (case.method.upper(), case.path) == ("POST", "/v1/shares"):
        if isinstance(body.get("recipients"), list):
            body["recipients"] = [_recipient(item) for item in body["recipients"]]
        # A file a share names must be the sharer's complete upload: the one the run seeded.
        for item in body.get("attachments") or []:
            if isinstance(item, dict) and isinstance(item.get("sha256"), str) and SHA256.match(item["sha256"]) and UPLOAD:
                item["sha256"] = UPLOAD
    elif (case.method.upper(), case.path) == ("POST", "/v1/conversations") and isinstance(body.get("members"), list):
        body["members"] = [PEER if isinstance(item, str) and HANDLE.match(item) else item for item in body["members"]]
    elif (case.method.upper(), case.path) == ("POST", "/v1/conversations/{id}/members"):
        if isinstance(body.get("handle"), str) and HANDLE.match(body["handle"]):
            body["handle"] = PEER
