# SPDX-License-Identifier: MIT
# A pytest check of a CPU profile through gperfcheck --json: the facts
# of the profile (every function and mapping with flat_samples and
# cum_samples) as a Python object, asserted on like any other data; and
# its comparison with a reference profile, skipped when the two hold
# too few samples to tell (exit status 3).
import json
import os
import subprocess

import pytest

GPERFCHECK = os.environ.get("GPERFCHECK", "gperfcheck")
PROFILE = os.environ.get("PROFILE", "app.prof")
REFERENCE = os.environ.get("REFERENCE", "reference.prof")
MAPPING = os.environ.get("MAPPING", "app")
MIN_SHARE = float(os.environ.get("MIN_SHARE", "50"))


def profile_facts(path):
    """gperfcheck's JSON object for PATH; the profile must be valid."""
    run = subprocess.run([GPERFCHECK, "--json", path],
                         capture_output=True, text=True, check=False)
    assert run.returncode == 0, run.stderr
    return json.loads(run.stdout)


def test_mapping_share():
    facts = profile_facts(PROFILE)
    assert facts["valid"]
    assert facts["samples"] > 0
    flats = [m["flat_samples"] for m in facts["mappings"]
             if m["path"] == MAPPING
             or os.path.basename(m["path"]) == MAPPING]
    assert flats, "no mapping " + MAPPING
    assert 100.0 * max(flats) / facts["samples"] >= MIN_SHARE


def test_function_counts():
    facts = profile_facts(PROFILE)
    for f in facts["functions"]:
        # a leaf is in its function's stack: flat never exceeds cum
        assert 0 <= f["flat_samples"] <= f["cum_samples"] <= facts["samples"]


def test_same_shares_as_reference():
    run = subprocess.run([GPERFCHECK, "--json", "--compare", REFERENCE,
                          PROFILE], capture_output=True, text=True,
                         check=False)
    assert run.returncode in (0, 1, 3), run.stderr
    result = json.loads(run.stdout)
    if run.returncode == 3:
        pytest.skip(result["message"])
    differ = [r["name"] for r in result["rows"]
              if r["verdict"] == "different"]
    assert run.returncode == 0, result["message"] + ": " + ", ".join(differ)
