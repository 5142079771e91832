#!/usr/bin/env python3
"""Compares an output block of a documentation page with what its command printed.

  doc-compare.py FENCE OPTIONS EXPECTED ACTUAL PAGE LINE   one comparison (.ci/doc-examples.sh)
  doc-compare.py --self-test                                checks this file's own rules

FENCE is the output block's language (json, text or empty), OPTIONS its other words, EXPECTED the
block's text (its first line is PAGE:LINE+1), ACTUAL what the run block before it printed.

Everything is compared exactly, except what the page marks as random with a placeholder (see
PLACEHOLDERS): a placeholder matches a run of characters of its kind, of exactly N characters
when it is written <kind:N>. Only the kinds below are placeholders; any other <word> is text.
  - json: the page's and the service's text are each a sequence of JSON values; they must be the
    same values, object keys in the same order (space between tokens does not count). A string
    on the page may hold placeholders.
  - HTTP (the page's first line starts with "HTTP/"): the status line exactly; each header the
    page shows, with its value (the service may send more); the body as JSON when the page's is,
    else as text.
  - text or no name: line by line (trailing spaces do not count).
  - the option "shape" (json only): the same keys, nesting, array lengths and value types,
    whatever the values; for what cannot be told with placeholders.
It prints how it compared ("exact", "exact, 3 random placeholders", "shape") and exits 0, or
prints what differs, with the page's lines, and exits 1. Exit 2: the page's block is malformed.

Python rather than jq: placeholders inside JSON strings, the path of each difference and a diff
that names the page's lines are a few lines each here, and hard to read in jq.
"""
import difflib
import json
import re
import sys

HEX = "[0-9a-f]"
# kind -> the regular expression of one character, or of the whole value when the kind has a
# fixed form (the uuids, timestamp)
PLACEHOLDERS = {
    "base64url": "[A-Za-z0-9_-]",  # SECURE_RANDOM_BASE64URL_ENCODED, page tokens
    "base64": "[A-Za-z0-9+/]",
    "base62": "[A-Za-z0-9]",  # FULL_RANDOM_BASE62_ENCODED
    "base32": "[A-Z2-7]",  # FULL_RANDOM_BASE32_ENCODED
    "hex": HEX,  # FULL_RANDOM_HEX_ENCODED
    "HEX": "[0-9A-F]",
    "digits": "[0-9]",
    "any": "[^\n]",
}
WHOLE = {
    "uuid": f"{HEX}{{8}}-{HEX}{{4}}-{HEX}{{4}}-{HEX}{{4}}-{HEX}{{12}}",
    "uuid4": f"{HEX}{{8}}-{HEX}{{4}}-4{HEX}{{3}}-[89ab]{HEX}{{3}}-{HEX}{{12}}",
    "uuid7": f"{HEX}{{8}}-{HEX}{{4}}-7{HEX}{{3}}-[89ab]{HEX}{{3}}-{HEX}{{12}}",
    # RFC 3339, the fraction and the zone optional (FHIR's date has neither)
    "timestamp": r"\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(?:\.\d{1,9})?(?:Z|[+-]\d{2}:\d{2})?",
}
PLACEHOLDER = re.compile(
    r"<(" + "|".join(list(PLACEHOLDERS) + list(WHOLE)) + r")(?::([0-9]+))?>"
)


class Malformed(Exception):
    """The page's block cannot be read as its fence says."""


def pattern(text):
    """The regular expression of a page's text with placeholders, and how many it holds."""
    parts, count, at = [], 0, 0
    for match in PLACEHOLDER.finditer(text):
        kind, length = match.group(1), match.group(2)
        parts.append(re.escape(text[at : match.start()]))
        if kind in WHOLE:
            if length is not None:
                raise Malformed(f"<{kind}> takes no length: {match.group(0)}")
            parts.append(f"(?:{WHOLE[kind]})")
        else:
            parts.append(PLACEHOLDERS[kind] + (f"{{{length}}}" if length else "+"))
        count += 1
        at = match.end()
    parts.append(re.escape(text[at:]))
    return re.compile("".join(parts), re.DOTALL), count


def matches(expected, actual):
    return pattern(expected)[0].fullmatch(actual) is not None


def placeholders_in(text):
    return len(PLACEHOLDER.findall(text))


# --- text ---------------------------------------------------------------------------------------


def lines_of(text):
    lines = [line.rstrip() for line in text.replace("\r", "").split("\n")]
    while lines and lines[-1] == "":
        lines.pop()
    return lines


def compare_lines(expected, actual, first_line, out):
    """Line by line; on a difference, prints a diff naming the page's lines."""
    if len(expected) == len(actual) and all(map(matches, expected, actual)):
        return True
    # for the diff, a service line that a page line's placeholders match reads as that page line
    shown, start = [], 0
    for line in actual:
        for j in range(start, len(expected)):
            if matches(expected[j], line):
                shown.append(expected[j])
                start = j + 1
                break
        else:
            shown.append(line)
    opcodes = difflib.SequenceMatcher(a=expected, b=shown, autojunk=False).get_opcodes()
    for tag, i1, i2, j1, j2 in opcodes:
        if tag == "equal":
            continue
        for i in range(i1, i2):
            out.append(f"  page    {first_line + i:>5} - {expected[i]}")
        for j in range(j1, j2):
            out.append(f"  service       + {actual[j]}")
    return False


# --- JSON ---------------------------------------------------------------------------------------


def json_values(text, what):
    """The JSON values of text, one after another, with the offset where each starts."""
    decoder, values, at = json.JSONDecoder(), [], 0
    while True:
        while at < len(text) and text[at].isspace():
            at += 1
        if at == len(text):
            return values
        try:
            value, end = decoder.raw_decode(text, at)
        except json.JSONDecodeError as e:
            raise Malformed(f"{what} is not JSON: {e.msg} at character {e.pos}") from None
        values.append((value, at))
        at = end


def kind_of(value):
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "boolean"
    if isinstance(value, (int, float)):
        return "number"
    return {str: "string", list: "array", dict: "object"}[type(value)]


def short(value):
    text = json.dumps(value, ensure_ascii=False)
    return text if len(text) <= 200 else text[:200] + "…"


def json_differences(expected, actual, path, shape, out):
    if kind_of(expected) != kind_of(actual):
        out.append(f"{path}: page {short(expected)}, service {short(actual)}")
    elif isinstance(expected, dict):
        for key in expected:
            if key not in actual:
                out.append(f"{path}.{key}: only on the page ({short(expected[key])})")
        for key in actual:
            if key not in expected:
                out.append(f"{path}.{key}: only in the service's output ({short(actual[key])})")
        shared = [key for key in expected if key in actual]
        if shared != [key for key in actual if key in expected]:
            out.append(f"{path}: the service's keys come in another order: {list(actual)}")
        for key in shared:
            json_differences(expected[key], actual[key], f"{path}.{key}", shape, out)
    elif isinstance(expected, list):
        if len(expected) != len(actual):
            out.append(f"{path}: page {len(expected)} elements, service {len(actual)}")
        for i, (e, a) in enumerate(zip(expected, actual)):
            json_differences(e, a, f"{path}[{i}]", shape, out)
    elif shape:
        pass
    elif isinstance(expected, str):
        if not matches(expected, actual):
            out.append(f"{path}: page {short(expected)}, service {short(actual)}")
    elif expected != actual:
        out.append(f"{path}: page {short(expected)}, service {short(actual)}")


def compare_json(expected_text, actual_text, first_line, shape, out):
    expected = json_values(expected_text, "the page's block")
    try:
        actual = json_values(actual_text, "the output")
    except Malformed as e:
        out.append(f"  {e}; the page expects JSON. The service printed:")
        compare_lines(lines_of(expected_text), lines_of(actual_text), first_line, out)
        return False
    differences = []
    if len(expected) != len(actual):
        differences.append(f"page {len(expected)} JSON values, service {len(actual)}")
    for i, ((e, at), (a, _)) in enumerate(zip(expected, actual)):
        line = first_line + expected_text.count("\n", 0, at)
        found = []
        json_differences(e, a, "$", shape, found)
        differences += [f"value {i + 1} (page line {line}) {d}" for d in found]
    for (a, _) in actual[len(expected) :]:
        differences.append(f"only in the service's output: {short(a)}")
    for (e, at) in expected[len(actual) :]:
        differences.append(f"only on the page (line {first_line + expected_text.count(chr(10), 0, at)}): {short(e)}")
    out += ["  " + d for d in differences]
    return not differences


# --- HTTP ---------------------------------------------------------------------------------------


def split_http(text):
    lines = text.replace("\r", "").split("\n")
    blank = lines.index("") if "" in lines else len(lines)
    return lines[0], lines[1:blank], "\n".join(lines[blank + 1 :])


def compare_http(expected_text, actual_text, first_line, shape, out):
    status, headers, body = split_http(expected_text)
    got_status, got_headers, got_body = split_http(actual_text)
    ok = True
    if not matches(status.rstrip(), got_status.rstrip()):
        out.append(f"  page    {first_line:>5} - {status}")
        out.append(f"  service       + {got_status}")
        ok = False
    received = {}
    for line in got_headers:
        name, _, value = line.partition(":")
        received.setdefault(name.strip().lower(), []).append(value.strip())
    for i, line in enumerate(headers, start=1):
        name, colon, value = line.partition(":")
        if not colon:
            raise Malformed(f"line {first_line + i} is no header: {line}")
        values = received.get(name.strip().lower(), [])
        if not any(matches(value.strip(), v) for v in values):
            sent = "; ".join(f"{name.strip()}: {v}" for v in values) or "no such header"
            out.append(f"  page    {first_line + i:>5} - {line}")
            out.append(f"  service       + {sent}")
            ok = False
    body_line = first_line + len(headers) + 2
    if body.strip() and looks_like_json(body):
        return compare_json(body, got_body, body_line, shape, out) and ok
    if shape:
        raise Malformed("the option shape needs a JSON body")
    return compare_lines(lines_of(body), lines_of(got_body), body_line, out) and ok


def looks_like_json(text):
    try:
        json_values(text, "")
        return True
    except Malformed:
        return False


# --- one comparison -----------------------------------------------------------------------------


def compare(fence, options, expected, actual, first_line):
    """(whether they agree, how it compared, the lines that say what differs)"""
    shape = "shape" in options.split()
    out = []
    if expected.startswith("HTTP/"):
        ok = compare_http(expected, actual, first_line, shape, out)
    elif fence == "json":
        ok = compare_json(expected, actual, first_line, shape, out)
    elif shape:
        raise Malformed("the option shape applies to json blocks and HTTP responses with a JSON body")
    else:
        ok = compare_lines(lines_of(expected), lines_of(actual), first_line, out)
    count = placeholders_in(expected)
    if shape:
        how = "shape"
    elif count:
        how = f"exact, {count} random placeholder{'s' if count > 1 else ''}"
    else:
        how = "exact"
    return ok, how, out


def main(args):
    if args == ["--self-test"]:
        return self_test()
    fence, options, expected_file, actual_file, page, line = args
    with open(expected_file, encoding="utf-8") as f:
        expected = f.read()
    with open(actual_file, encoding="utf-8", errors="replace") as f:
        actual = f.read()
    where = f"{page}:{line}"
    try:
        ok, how, out = compare(fence, options, expected, actual, int(line) + 1)
    except Malformed as e:
        print(f"doc-examples: {where}: the page's output block is malformed: {e}")
        return 2
    if ok:
        print(f"-- {where}: output compared, {how}")
        return 0
    print(f"doc-examples: MISMATCH {where}: the page's output differs from the service's ({how}):")
    print("\n".join(out))
    return 1


# --- self-test: each rule above, and that a changed output fails --------------------------------

CASES = [
    # (fence, options, page, output, agree)
    ("", "", "a\nb\n", "a\nb", True),
    ("", "", "a\nb\n", "a\nc\n", False),
    ("", "", "a\n", "a\nb\n", False),
    ("text", "", "id <uuid4>\n", "id 590dfde4-aefe-4a76-ad43-9fc102f1eb84\n", True),
    ("text", "", "id <uuid4>\n", "id 01a23489-76ca-7d16-8e94-cbce3b0fc9fa\n", False),
    ("text", "", "id <uuid7>\n", "id 01a23489-76ca-7d16-8e94-cbce3b0fc9fa\n", True),
    ("text", "", "v-<base32:12>\n", "v-V6ORACQSF5VL\n", True),
    ("text", "", "v-<base32:12>\n", "v-V6ORACQSF5V\n", False),
    ("text", "", "v-<base32:12>\n", "v-V6ORACQSF5v1\n", False),
    ("text", "", "<base64url:32>\n", "W86Y98KnDwLOHYzg\n", False),
    ("text", "", "<base64url:32>\n", "W86Y9-KnDwLOHYzgW86Y98KnDwLOHY_g\n", True),
    ("text", "", "<HEX:4> <hex:4>\n", "AB12 ab12\n", True),
    ("text", "", "<HEX:4>\n", "ab12\n", False),
    ("text", "", "at <timestamp> ERROR\n", "at 2026-12-02T10:00:00.123Z ERROR\n", True),
    ("text", "", "at <timestamp> ERROR\n", "at yesterday ERROR\n", False),
    ("text", "", "a <b> c\n", "a <b> c\n", True),
    ("text", "", "a <b> c\n", "a x c\n", False),
    ("json", "", '{"a": 1, "b": "x"}', '{"a":1,"b":"x"}', True),
    ("json", "", '{"a": 1, "b": "x"}', '{"a":2,"b":"x"}', False),
    ("json", "", '{"a": 1, "b": "x"}', '{"b":"x","a":1}', False),
    ("json", "", '{"a": 1}', '{"a":1,"b":2}', False),
    ("json", "", '{"a": 1}\n{"a": 2}', '{"a":1}\n{"a":2}\n', True),
    ("json", "", '{"a": 1}\n{"a": 2}', '{"a":1}\n', False),
    ("json", "", '[1, 2]', '[1, 2, 3]', False),
    ("json", "", '{"t": "<timestamp>"}', '{"t": "2026-12-02T01:04:17.484796Z"}', True),
    ("json", "", '{"t": "<timestamp>"}', '{"t": 5}', False),
    ("json", "", '{"p": "stud-<base64url:54>"}', '{"p": "stud-' + "A" * 54 + '"}', True),
    ("json", "", '{"p": "stud-<base64url:54>"}', '{"p": "stud-' + "A" * 53 + '"}', False),
    ("json", "", '{"m": "not found"}', "not found", False),
    ("json", "shape", '{"a": 1, "b": ["x"]}', '{"a": 7, "b": ["y"]}', True),
    ("json", "shape", '{"a": 1, "b": ["x"]}', '{"a": "7", "b": ["y"]}', False),
    ("", "", "HTTP/1.1 404 Not Found\ncontent-length: 79\n\n{\"code\":5}",
     "HTTP/1.1 404 Not Found\r\ncontent-type: application/json\r\ncontent-length: 79\r\n\r\n{\"code\":5}", True),
    ("", "", "HTTP/1.1 404 Not Found\ncontent-length: 79\n\n{\"code\":5}",
     "HTTP/1.1 404 Not Found\r\ncontent-length: 85\r\n\r\n{\"code\":5}", False),
    ("", "", "HTTP/1.1 404 Not Found\n\n{\"code\":5}", "HTTP/1.1 400 Bad Request\r\n\r\n{\"code\":5}", False),
    ("", "", "HTTP/1.1 404 Not Found\n\n{\"code\":5}", "HTTP/1.1 404 Not Found\r\n\r\n{\"code\":3}", False),
    ("", "", "HTTP/1.1 200 OK\n\nhello\n", "HTTP/1.1 200 OK\r\nx: y\r\n\r\nhello", True),
]


def self_test():
    failed = 0
    for fence, options, page, output, agree in CASES:
        ok, _, out = compare(fence, options, page, output, 1)
        if ok != agree:
            failed += 1
            print(f"doc-compare self-test: {page!r} against {output!r} should "
                  f"{'agree' if agree else 'differ'}", *out, sep="\n")
        if not ok and not out:
            failed += 1
            print(f"doc-compare self-test: {page!r} against {output!r} differ, but nothing says how")
    for fence, bad in [("json", '{"a": '), ("text", "<uuid:3>")]:
        try:
            compare(fence, "", bad, "{}", 1)
            failed += 1
            print(f"doc-compare self-test: the malformed block {bad!r} was accepted")
        except Malformed:
            pass
    print(f"doc-compare self-test: {len(CASES)} cases, {failed} failed")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
