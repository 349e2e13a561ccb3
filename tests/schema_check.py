"""Validate a value against a schema in an OpenAPI document (or fragment) by name.

    from tests.schema_check import validator_for
    check = validator_for("api/openapi/witches.yaml")
    check("WitchesView", view)      # raises jsonschema.ValidationError when it does not match
"""
from __future__ import annotations

from functools import cache
from pathlib import Path

import jsonschema

from api.openapi import load_yaml

ROOT = Path(__file__).resolve().parent.parent


@cache
def _document(path: str) -> dict:
    return load_yaml((ROOT / path).read_text())


@cache
def _validator(path: str, schema_name: str) -> jsonschema.Draft202012Validator:
    return jsonschema.Draft202012Validator({"$ref": f"#/components/schemas/{schema_name}", **_document(path)})


def validator_for(path: str):
    # Playouts check the same move or event over and over (a tenth of the values are distinct),
    # and jsonschema is pure Python: a value that passed is not validated again. Keyed by repr,
    # not JSON, so that a tuple is never taken for the list that passed.
    passed: set[tuple[str, str]] = set()

    def check(schema_name: str, value) -> None:
        key = (schema_name, repr(value))
        if key not in passed:
            _validator(path, schema_name).validate(value)
            passed.add(key)

    return check
