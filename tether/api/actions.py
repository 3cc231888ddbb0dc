"""Action resources (``POST /volumes/{id}/action``,
``POST /servers/{id}/action``): the body is an object with one key, the
action's name, and each action is a handler of its own, with its own
schema, policy and microversion window. The actions of one route may come
from several handler modules (each its ``ACTIONS``), as Nova keeps
os-getConsoleOutput in a module of its own."""

from tether.api import fault
from tether.api import microversion
from tether.api import validation

UNKNOWN_ACTION = 'api.action.unknown'
UNSERVED_ACTION = 'api.action.not_served'


class Dispatcher:
    """The handler of an action route: runs the handler of the action
    the body names (each of ``tables``: name -> handler; a name in two
    tables is a mistake)."""

    def __init__(self, resource, *tables, unserved=None):
        self.resource = resource
        # Called as unserved(req, name) before an unknown action's 400:
        # it may refuse otherwise (the 404 of an unknown resource, as
        # upstream looks the resource up for an action it has).
        self.unserved = unserved
        self.actions = {}
        for table in tables:
            twice = sorted(set(table) & set(self.actions))
            if twice:
                raise ValueError('%s actions defined twice: %s'
                                 % (resource, ', '.join(twice)))
            self.actions.update(table)

    def __call__(self, req):
        body = validation.parse_json(req)
        if not isinstance(body, dict) or len(body) != 1:
            raise fault.HTTPError(
                400, 'A %s action body is an object with exactly one key, '
                     'the action name.' % self.resource,
                code=fault.MALFORMED_BODY)
        name = next(iter(body))
        handler = self.actions.get(name)
        if handler is None:
            if self.unserved is not None:
                self.unserved(req, name)
            served = sorted(n for n, h in self.actions.items()
                            if microversion.in_window(h, req.version))
            raise fault.HTTPError(
                400, 'There is no such action: %s (tether serves %s).'
                % (name, ', '.join(served)), code=UNKNOWN_ACTION)
        if not microversion.in_window(handler, req.version):
            # As Cinder and Nova answer an action outside its versions:
            # 404, as a resource outside its versions is.
            raise fault.HTTPError(
                404, 'The action %s is not served at microversion %s (%s).'
                % (name, req.version, microversion.window_text(handler)),
                code=UNSERVED_ACTION)
        return handler(req)
