#!/bin/bash
# Install what tether needs for one bindep profile, and nothing more.
#
#   tools/install-deps.sh [aio|test|integration|manila]   (default: test)
#
# Idempotent and fast when everything is already there:
#  1. Debian packages: `bindep -b PROFILE` lists the missing ones from
#     bindep.txt; only if it lists any, `apt-get update` and `apt-get install`
#     them (this needs root, as on CI).
#  2. Python packages: `pip install -e .` (plus -r test-requirements.txt for
#     the test profile, and python-openstackclient for aio so that the
#     `openstack` CLI of the README is there; the integration profile adds
#     tether's extras api and postgresql: gunicorn and the PostgreSQL
#     driver), skipped when tether is already installed from this tree and
#     every listed requirement is satisfied.
#  3. Glance's virtualenv (tether-aio and the integration deployment start
#     Glance, the image service, as a child process: tether/cmd/glance/),
#     made once and kept; for the test profile, Keystone's too (tether-aio
#     --keystone, tests/functional/test_aio_keystone.py), made once and
#     kept (tether-aio --keystone otherwise makes it at its first start).
# The manila profile is steps 1 and then Manila's virtualenv
# (tools/manila_ceph/requirements.txt, made once and kept) instead of 2 and 3:
# what tools/manila_ceph/deployment.py and tests/functional/share/ need.
#
# PYTHON selects the interpreter (default: python3).
set -euo pipefail

profile=${1:-test}
case "$profile" in
    aio|test|integration|manila) ;;
    *) echo "usage: $0 [aio|test|integration|manila]" >&2; exit 2 ;;
esac

cd "$(dirname "$0")/.."
PYTHON=${PYTHON:-python3}
export PIP_DISABLE_PIP_VERSION_CHECK=1 PIP_ROOT_USER_ACTION=ignore

pip_install() {
    "$PYTHON" -m pip install -qq "$@"
}

# 1. Debian packages -------------------------------------------------------
if ! "$PYTHON" -c 'import bindep' 2>/dev/null; then
    pip_install bindep
fi
# bindep exits 1 when something is missing; that is not an error here.
missing=$("$PYTHON" -m bindep -b "$profile" || true)
if [ -n "$missing" ]; then
    if [ "$(id -u)" != 0 ]; then
        echo "install-deps: missing Debian packages (run as root):" $missing >&2
        exit 1
    fi
    echo "install-deps: installing Debian packages:" $missing
    export DEBIAN_FRONTEND=noninteractive
    apt-get update -qq
    # shellcheck disable=SC2086  # one word per package
    apt-get install -y -qq --no-install-recommends $missing >/dev/null
    still=$("$PYTHON" -m bindep -b "$profile" || true)
    if [ -n "$still" ]; then
        echo "install-deps: still missing after apt-get:" $still >&2
        exit 1
    fi
fi

if [ "$profile" = manila ]; then
    exec "$PYTHON" tools/manila_ceph/deployment.py install
fi

# 2. Python packages -------------------------------------------------------
req_files=(requirements.txt)
extra=()
# Extras of setup.cfg ([extras]) installed with tether.
extras=()
if [ "$profile" = test ]; then
    req_files+=(test-requirements.txt)
elif [ "$profile" = integration ]; then
    req_files+=(test-requirements.txt)
    extras=(api postgresql)
else
    extra=(python-openstackclient)
fi

# Exit 0 if tether is installed from this tree (with the entry points of
# setup.cfg) and every requirement in the files (and the extra packages, and
# those of the extras of setup.cfg) is installed at a version the
# requirement allows.
satisfied() {
    TETHER_EXTRAS="${extras[*]}" \
    "$PYTHON" - "$PWD" "${req_files[@]}" -- "${extra[@]}" <<'EOF' 2>/dev/null
import importlib.metadata as md
import os
import sys

from packaging.requirements import Requirement

root, rest = sys.argv[1], sys.argv[2:]
sep = rest.index('--')
files, extra = rest[:sep], rest[sep + 1:]

# The installed tether, not the one in the current directory.
sys.path = [p for p in sys.path if p not in ('', root)]
import tether
if os.path.dirname(os.path.dirname(os.path.abspath(tether.__file__))) != root:
    sys.exit(1)
# Every entry point of setup.cfg (console scripts, generator namespaces)
# is installed as it is written there: pip -e does not notice new ones.
import configparser
setup_cfg = configparser.ConfigParser()
setup_cfg.read(os.path.join(root, 'setup.cfg'))
installed = {(ep.group, ep.name, ep.value)
             for ep in md.distribution('tether').entry_points}
for group, text in setup_cfg['entry_points'].items():
    for line in text.strip().splitlines():
        name, _, value = line.partition('=')
        if (group, name.strip(), value.strip()) not in installed:
            sys.exit(1)
lines = list(extra)
for name in os.environ.get('TETHER_EXTRAS', '').split():
    lines += setup_cfg['extras'][name].strip().splitlines()
for name in files:
    with open(name) as f:
        lines += f.read().splitlines()
for line in lines:
    line = line.split('#', 1)[0].strip()
    if not line:
        continue
    req = Requirement(line)
    if req.marker is not None and not req.marker.evaluate():
        continue
    if not req.specifier.contains(md.version(req.name), prereleases=True):
        sys.exit(1)
EOF
}

if ! satisfied; then
    echo "install-deps: installing Python packages ($profile)"
    if [ ${#extras[@]} -gt 0 ]; then
        args=(-e ".[$(IFS=,; echo "${extras[*]}")]")
    else
        args=(-e .)
    fi
    for f in "${req_files[@]}"; do
        [ "$f" = requirements.txt ] || args+=(-r "$f")
    done
    pip_install "${args[@]}" "${extra[@]}"
    # pyenv only learns of new console scripts (tether-aio, openstack) on
    # a rehash, which `python -m pip` does not trigger.
    if command -v pyenv >/dev/null 2>&1; then
        pyenv rehash || true
    fi
fi

# 3. Glance (and Keystone for the tests) -------------------------------------
"$PYTHON" -m tether.cmd.glance.child
if [ "$profile" = test ]; then
    "$PYTHON" -m tether.cmd.aio_keystone
fi
