"""Validate a value against a schema in an OpenAPI document (or fragment) by name.

    from tests.schema_check import validator_for
    check = validator_for("api/openapi/witches.yaml")
    check("WitchesView", view)      # raises jsonschema.ValidationError when it does not match
"""
from __future__ import annotations

from functools import cache
from pathlib import Path

import jsonschema
import jsonschema_rs

from api.openapi import load_yaml

ROOT = Path(__file__).resolve().parent.parent


@cache
def _document(path: str) -> dict:
    return load_yaml((ROOT / path).read_text())


@cache
def _validator(path: str, schema_name: str) -> jsonschema.Draft202012Validator:
    return jsonschema.Draft202012Validator(_rooted(path, schema_name))


@cache
def _fast_validator(path: str, schema_name: str) -> jsonschema_rs.Draft202012Validator:
    return jsonschema_rs.Draft202012Validator(_rooted(path, schema_name))


def _rooted(path: str, schema_name: str) -> dict:
    return {"$ref": f"#/components/schemas/{schema_name}", **_document(path)}


def _json_only(value) -> bool:
    """Whether the value is made of JSON's types alone (jsonschema_rs reads a tuple as an array;
    jsonschema, the judge, does not)."""
    if isinstance(value, dict):
        return all(isinstance(k, str) and _json_only(v) for k, v in value.items())
    if isinstance(value, list):
        return all(_json_only(v) for v in value)
    return value is None or isinstance(value, (str, int, float, bool))


def _validate(path: str, schema_name: str, value) -> None:
    """Raises jsonschema.ValidationError when the value does not match. jsonschema_rs (compiled)
    passes the values that match, about 40 times faster than jsonschema (pure Python), which then
    judges only the values it did not pass, so that a failure reads as jsonschema words it."""
    if _fast_validator(path, schema_name).is_valid(value) and _json_only(value):
        return
    _validator(path, schema_name).validate(value)


def validator_for(path: str):
    # Playouts check the same move or event over and over (a tenth of the values are distinct),
    # and jsonschema is pure Python: a value that passed is not validated again. Keyed by repr,
    # not JSON, so that a tuple is never taken for the list that passed.
    passed: set[tuple[str, str]] = set()

    def check(schema_name: str, value) -> None:
        key = (schema_name, repr(value))
        if key not in passed:
            _validate(path, schema_name, value)
            passed.add(key)

    return check
