#!/usr/bin/env bash
# Builds the seed corpus in Fuzz/corpus-work/seeds/ from the shared test corpora (never committed:
# the corpora stay in ../shared/corpus, see its README). Safe to rerun: the folder is rebuilt.
#
# Every seed starts with the two option bytes FuzzInput reads (chunking, charset, early stop, tiny
# limits / tokenizer initial state, CDATA, …), varied across seeds so the first run already covers
# every option; html5lib tokenizer tests get the initial states and last start tag they ask for.
#
# Usage: Fuzz/seed.sh            (SHARED_CORPUS overrides the location of shared/corpus)
set -euo pipefail
cd "$(dirname "$0")"
shared="${SHARED_CORPUS:-$(cd ../.. && pwd)/shared/corpus}"
if [[ ! -d "$shared/pages" || ! -d "$shared/html5lib" ]]; then
    echo "seed.sh: no corpus at $shared (set SHARED_CORPUS); seeding from html.dict only" >&2
fi
rm -rf corpus-work/seeds
mkdir -p corpus-work/seeds corpus-work/live artifacts
python3 - "$shared" corpus-work/seeds <<'PY'
import glob, hashlib, json, os, sys

shared, out = sys.argv[1], sys.argv[2]
max_len = 65536          # run.sh's -max_len: longer seeds would be cut by libFuzzer anyway
count = 0

def write(options, document):
    global count
    data = bytes(options) + document[: max_len - 2]
    name = hashlib.sha1(data).hexdigest()
    with open(os.path.join(out, name), "wb") as f:
        f.write(data)
    count += 1

# Real pages: the first 64 KiB (pages under that are whole), with options cycling through the
# chunkings, the 11 transport charsets, early stop and tiny limits, and raw or decoded tokenizer input.
pages = sorted(glob.glob(os.path.join(shared, "pages", "*.html")))
for i, path in enumerate(pages):
    document = open(path, "rb").read()
    byte0 = (i % 4) | ((i // 4) % 2) << 2 | ((i // 8) % 2) << 3 | (i % 11) << 4
    byte1 = 0x20 * (i % 2) | 0x80 * ((i // 2) % 2)
    write([byte0, byte1], document)
    write([0x04, 0x20], document)  # the common case: whole, no transport charset, early stop

# html5lib tokenizer tests: each input in each initial state it is tested in.
states = {"Data state": 0, "RCDATA state": 1, "RAWTEXT state": 2, "Script data state": 3,
          "PLAINTEXT state": 4, "CDATA section state": 5}
for path in sorted(glob.glob(os.path.join(shared, "html5lib", "tokenizer", "*.test"))):
    suite = json.load(open(path, encoding="utf-8"))
    for j, test in enumerate(suite.get("tests", []) + suite.get("xmlViolationTests", [])):
        text = test["input"]
        if test.get("doubleEscaped"):
            text = text.encode("latin-1", "backslashreplace").decode("unicode_escape")
        document = text.encode("utf-8", "surrogatepass")
        for state in test.get("initialStates", ["Data state"]):
            byte1 = states.get(state, 0) | (0x40 if "lastStartTag" in test else 0) | (0x20 if j % 3 == 0 else 0)
            write([(j % 4) | 0x04, byte1], document)

# html5lib encoding tests: documents whose charset must be sniffed, under each transport charset.
for path in sorted(glob.glob(os.path.join(shared, "html5lib", "encoding", "**", "*.dat"), recursive=True)):
    raw = open(path, "rb").read()
    for j, section in enumerate(raw.split(b"#data\n")[1:]):
        document = section.split(b"\n#encoding\n")[0]
        write([(j % 4) | (j % 11) << 4, 0x20], document)
for path in sorted(glob.glob(os.path.join(shared, "html5lib", "encoding", "chardet", "*"))):
    write([0x00, 0x20], open(path, "rb").read())

# A few hand-made documents, so the fuzzer has something even without the shared corpus.
for document in [
    b"",
    b"<!DOCTYPE html><html lang=en><head><meta charset=utf-8><title>A &amp; B | Site</title>"
    b"<meta property=og:image content=/a.png><link rel=icon href=/i.png></head><body><h1>H</h1>",
    b"<script type=application/ld+json>{\"@type\":\"NewsArticle\",\"headline\":\"H\","
    b"\"datePublished\":\"2024-02-30T25:00:00Z\",\"author\":{\"name\":\"A\"}}</script>",
    b"<!-- a -- b --!><![CDATA[x]]><svg><![CDATA[y]]></svg><textarea></textarea\t/>",
    b"\xef\xbb\xbf<meta http-equiv=content-type content='text/html; charset=shift_jis'>\x82\xa0",
    b"\xff\xfe<\x00p\x00>\x00",
]:
    write([0x05, 0x20], document)
    write([0x0A, 0x00], document)

print(f"seed.sh: {count} seeds written to {out} ({len(os.listdir(out))} distinct)")
PY
