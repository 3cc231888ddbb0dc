"""The policy matrix's table (matrix.txt), its personas, and the list of
operations the route tables declare, which the table must match."""

import os

from tether.api import actions
from tether.api.compute import routes as compute_routes
from tether.api.volume import routes as volume_routes

TABLE = os.path.join(os.path.dirname(__file__), 'matrix.txt')

# Column -> (project, roles of the noauth token); see matrix.txt.
PERSONAS = {
    'aA': ('A', 'admin'),
    'mA': ('A', 'member'),
    'rA': ('A', 'reader'),
    'aB': ('B', 'admin'),
    'mB': ('B', 'member'),
    'rB': ('B', 'reader'),
    'svc': ('S', 'service'),
}
COLUMNS = list(PERSONAS)


def declared_operations():
    """Every operation of both route tables: ``<api> <METHOD> <path>``,
    and ``... <action>`` for each action of an action route."""
    found = []
    for api, routes in (('volume', volume_routes), ('compute',
                                                    compute_routes)):
        for path, methods in routes.RESOURCES:
            for method, handler in sorted(methods.items()):
                name = '%s %s %s' % (api, method, path)
                if isinstance(handler, actions.Dispatcher):
                    found.extend('%s %s' % (name, action)
                                 for action in sorted(handler.actions))
                else:
                    found.append(name)
    return found


def base_operation(name):
    """The route's operation of a row (a query variant's is the plain
    one)."""
    return name.split('?', 1)[0]


def load():
    """{operation: {column: status}} in the table's order."""
    rows = {}
    with open(TABLE) as f:
        for number, line in enumerate(f, 1):
            line = line.strip()
            if not line or line.startswith('#'):
                continue
            words = line.split()
            codes = words[-len(COLUMNS):]
            name = ' '.join(words[:-len(COLUMNS)])
            if name in rows or not all(c.isdigit() for c in codes):
                raise ValueError('matrix.txt line %d: %r' % (number, line))
            rows[name] = dict(zip(COLUMNS, map(int, codes)))
    return rows
