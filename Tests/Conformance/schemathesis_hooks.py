"""Loaded by schemathesis through SCHEMATHESIS_HOOKS (OpenAPIConformanceTests sets it).

Hypothesis names a filtered strategy by parsing the source of its lambda with `ast.parse`.
On some CPython 3.11 releases that parse, done deep in schemathesis's coverage walk, raises
`SystemError: AST constructor recursion depth mismatch` (a CPython bug, not ours), which ends the
operation's tests with a runtime error. The name is only used in messages, so fall back to
hypothesis's own "unknown" wording instead of failing the run.
"""

import hypothesis.internal.lambda_sources as lambda_sources

_describe = getattr(lambda_sources, "_lambda_description", None)


def _describe_or_unknown(function, *args, **kwargs):
    try:
        return _describe(function, *args, **kwargs)
    except SystemError:
        return "lambda: <unknown>"


if _describe is not None:
    lambda_sources._lambda_description = _describe_or_unknown


import schemathesis


@schemathesis.serializer("application/vnd.cloner.graph+x-ndjson")
def _graph_document(ctx, value):
    """A graph document is text (NDJSON, described as a string): sent as its UTF-8 bytes, so the
    fuzzer's strings reach the import's line checks."""
    if value is None:
        return None
    return value.encode("utf-8", "surrogatepass") if isinstance(value, str) else str(value).encode("utf-8")
