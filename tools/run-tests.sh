#!/bin/bash
# Install what the tests need (bindep profiles "test" and "manila"), then
# run the unit and functional tests on two pytest-xdist workers. Extra
# arguments go to pytest.
#
#   tools/run-tests.sh [pytest args]
set -euo pipefail
cd "$(dirname "$0")/.."
PYTHON=${PYTHON:-python3}
tools/install-deps.sh test
# The share tests (tests/functional/share/) run a real Manila on a one-node
# Ceph beside tether (tools/manila_ceph/): its packages and virtualenv.
tools/install-deps.sh manila
exec "$PYTHON" -m pytest -n 2 -q --durations=30 tests/unit tests/functional "$@"
