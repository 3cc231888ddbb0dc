"""The operations of an API, read from its route table: each method of
each path, and each action of an action route on its own, with the
microversions it is served at. The OpenAPI description
(tether.api.openapi) and the guards of declared responses walk these."""

import re

from tether.api import actions
from tether.api import microversion

PATH_PARAMETER = re.compile(r'{([a-z_]+)}')


class Operation:
    def __init__(self, service, path, method, handler, action=None):
        self.service = service
        self.path = path
        self.method = method
        self.handler = handler
        self.action = action

    @property
    def name(self):
        """``GET /volumes/{volume_id}``, ``POST /volumes/{volume_id}/action
        os-extend``: unique within an API."""
        name = '%s %s' % (self.method, self.path)
        return name + ' ' + self.action if self.action else name

    @property
    def operation_id(self):
        """``volumes.show_volume``: the handler's module and function."""
        handler = self.handler
        return '%s.%s' % (handler.__module__.rsplit('.', 1)[-1],
                          handler.__name__)

    @property
    def path_parameters(self):
        return PATH_PARAMETER.findall(self.path)

    def window(self):
        """The lowest and highest microversion served (Version objects)."""
        lo = getattr(self.handler, 'min_version', None) or self.service.min
        hi = getattr(self.handler, 'max_version', None) or self.service.max
        return max(lo, self.service.min), min(hi, self.service.max)

    def versions(self):
        """Every microversion served, lowest first (Version objects)."""
        lo, hi = self.window()
        return [v for v in map(microversion.parse, self.service.versions)
                if lo <= v <= hi]


def of(service, resources):
    """The operations of ``resources`` (a route table's RESOURCES: path ->
    {method: handler}), served by ``service`` (microversion.Service), in
    the table's order."""
    found = []
    for path, methods in resources:
        for method, handler in methods.items():
            if isinstance(handler, actions.Dispatcher):
                for name in sorted(handler.actions):
                    found.append(Operation(service, path, method,
                                           handler.actions[name], name))
            else:
                found.append(Operation(service, path, method, handler))
    return found
