"""Write the OpenAPI descriptions of both APIs (every microversion) into
a directory: ``python -m tether.cmd.openapi doc/source/openapi`` (tox -e
openapi). The assembly's: it reads both services' route tables."""

import json
import pathlib
import sys

from tether.api.compute import description as compute_description
from tether.api import openapi
from tether.api.volume import description as volume_description

APIS = {'volume': volume_description, 'compute': compute_description}


def text(name):
    """The committed form of API ``name``'s description."""
    return json.dumps(openapi.document(APIS[name].api()), indent=1,
                      sort_keys=True) + '\n'


def write(directory):
    out = pathlib.Path(directory)
    out.mkdir(parents=True, exist_ok=True)
    for name in APIS:
        (out / ('%s.json' % name)).write_text(text(name))


def main(argv=None):
    argv = sys.argv[1:] if argv is None else argv
    write(argv[0] if argv else 'doc/source/openapi')


if __name__ == '__main__':
    main()
