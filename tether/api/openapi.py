"""The OpenAPI 3.1 description of each API, made from the API itself:
its route table (tether.api.operations), the request and query schemas
its handlers validate with (tether.api.validation) and the responses
they declare (tether.api.responses). Nothing is written twice, so the
description cannot drift from the code.

Microversions are written much as the OpenStack SDK's generated
descriptions write them (with ``anyOf`` where they write ``oneOf``: two
windows' schemas may accept the same body): where a schema changes with
the microversion, the schema is
an ``anyOf`` of one variant per window, each variant's ``x-openstack``
naming its ``min-ver`` and ``max-ver``, the ``anyOf``'s own
``x-openstack`` the ``discriminator: microversion``. The actions of an
action route are one operation whose body is an ``anyOf`` of the actions
(``discriminator: action``, each variant its ``action-name``).
``GET /openapi.json?microversion=X`` answers the description of one
microversion instead: every schema is the one that applies at X, and
operations not served at X are left out (what a fuzzer or a client
generator pinned to a version wants).

Every path is written without the project (``/v3/volumes``); each is also
served under ``/v3/{project_id}`` (and the compute API's under
``/v2.1/{project_id}`` and Nova's legacy ``/v2``).
"""

import collections
import re

from oslo_serialization import jsonutils
import webob

from tether.api import fault
from tether.api import microversion
from tether.api import operations
from tether.api import responses
from tether.api import validation

OPENAPI_VERSION = '3.1.0'
PATH = '/openapi.json'

_FAULT_BODY = {
    'type': 'object',
    'properties': {
        'code': {'type': 'integer'},
        'message': {'type': 'string'},
        'error_code': {'type': 'string'},
        'retryAfter': {'type': 'string'},
    },
    'required': ['code', 'message'],
}
FAULT = {
    'description': 'A fault: one key, named after the status (badRequest, '
                   'itemNotFound, ...), whose error_code names the '
                   'problem (doc/source/errors.rst).',
    'type': 'object',
    'minProperties': 1, 'maxProperties': 1,
    'propertyNames': {'enum': sorted(set(fault.FAULT_NAMES.values()) |
                                     {'computeFault'})},
    'additionalProperties': _FAULT_BODY,
}


class API:
    """What a description is made of: the service, its route table and
    the prefix of its paths."""

    def __init__(self, title, service, resources, prefix):
        self.title = title
        self.service = service
        self.resources = resources
        self.prefix = prefix


def _ver(version):
    return None if version is None else str(version)


def _marked(schema, **marks):
    """A copy of ``schema`` with ``x-openstack`` ``marks`` (None left
    out); the schemas of the code are never changed."""
    marks = {k.replace('_', '-'): v for k, v in marks.items()
             if v is not None}
    if not marks:
        return schema
    out = dict(schema)
    out['x-openstack'] = dict(schema.get('x-openstack', {}), **marks)
    return out


def _windows(pairs, op_window):
    """``(lo, hi, what)`` with each open end closed by the operation's
    own window."""
    op_lo, op_hi = op_window
    return sorted(
        [(max(lo or op_lo, op_lo), min(hi or op_hi, op_hi), what)
         for lo, hi, what in pairs
         if (lo or op_lo) <= op_hi and (hi or op_hi) >= op_lo],
        key=lambda pair: pair[0])


def _variants(pairs, op_window, version, discriminator='microversion'):
    """One schema of ``pairs`` (lo, hi, schema): the one that applies at
    ``version``; without a version, the only one, or an ``anyOf`` of all
    of them, each marked with its window. None where none applies."""
    pairs = _windows(pairs, op_window)
    if version is not None:
        return validation.choose(pairs, version)
    if not pairs:
        return None
    if len(pairs) == 1:
        return pairs[0][2]
    return {'anyOf': [_marked(schema, min_ver=_ver(lo), max_ver=_ver(hi))
                      for lo, hi, schema in pairs],
            'x-openstack': {'discriminator': discriminator}}


def _schemas(handler, attr):
    return [(lo, hi, v.schema) for lo, hi, v in getattr(handler, attr, [])]


def _query_parameters(op, version):
    """The query's properties as parameters: each with the schema of the
    latest window that has it, and the microversions it is taken at."""
    found = {}
    for lo, hi, schema in _windows(
            _schemas(op.handler, 'query_schemas'), op.window()):
        if version is not None and not lo <= version <= hi:
            continue
        required = set(schema.get('required', []))
        for name, prop in schema.get('properties', {}).items():
            seen = found.get(name)
            found[name] = {
                'lo': lo if seen is None else min(seen['lo'], lo),
                'hi': hi if seen is None else max(seen['hi'], hi),
                'schema': prop, 'required': name in required}
    op_lo, op_hi = op.window()
    params = []
    for name in sorted(found):
        entry = found[name]
        param = {'name': name, 'in': 'query', 'schema': entry['schema'],
                 'required': entry['required']}
        if version is None and (entry['lo'], entry['hi']) != (op_lo, op_hi):
            param['x-openstack'] = {'min-ver': str(entry['lo']),
                                    'max-ver': str(entry['hi'])}
        params.append(param)
    return params


def _content(schema):
    return {'application/json': {'schema': schema}}


class _Builder:
    def __init__(self, api, version):
        self.api = api
        self.version = version
        self.ids = set()

    def _served(self, op):
        lo, hi = op.window()
        return self.version is None or lo <= self.version <= hi

    def _operation_id(self, op, name):
        # /os-volumes_boot serves the handlers of /servers: an alias.
        if name in self.ids:
            alias = re.sub(r'\W+', '_', op.path.split('/')[1])
            name = '%s.%s' % (alias, name)
        self.ids.add(name)
        return name

    def _responses(self, ops):
        """Each status any of ``ops`` declares, with the schema (or the
        ``anyOf`` of its windows, or of the actions) of its body; and the
        fault."""
        by_status = {}
        for op in ops:
            declared = _windows(responses.declarations(op.handler),
                                op.window())
            if self.version is not None:
                declared = [(lo, hi, d) for lo, hi, d in declared
                            if lo <= self.version <= hi]
            statuses = []
            for _lo, _hi, d in declared:
                statuses += [s for s in d.statuses if s not in statuses]
            for status in statuses:
                bodies = [(lo, hi, d.schema) for lo, hi, d in declared
                          if status in d.statuses and d.schema is not None]
                schema = _variants(bodies, op.window(), None)
                if op.action and schema is not None:
                    schema = _marked(schema, action_name=op.action)
                by_status.setdefault(status, []).append(schema)
        out = {}
        if not by_status:
            # An operation on tests/unit/api/responses_todo.txt.
            out['2XX'] = {'description': 'Success; its body is not '
                                         'described yet.'}
        for status in sorted(by_status):
            schemas = [s for s in by_status[status] if s is not None]
            entry = {'description': 'Success.'}
            if schemas and None in by_status[status]:
                # Actions that answer this status with a body and others
                # without: OpenAPI has no optional content, so the bodies
                # are told apart from it, by action.
                entry['description'] = ('Success; some actions answer '
                                        'without a body.')
                entry['x-openstack'] = {'discriminator': 'action',
                                        'bodies': schemas}
            elif len(schemas) == 1:
                entry['content'] = _content(schemas[0])
            elif schemas:
                entry['content'] = _content({
                    'anyOf': schemas,
                    'x-openstack': {'discriminator': 'action'}})
            out[str(status)] = entry
        out['default'] = {'description': 'An error.', 'content': _content(
            {'$ref': '#/components/schemas/fault'})}
        return out

    def _body(self, ops):
        bodies = []
        for op in ops:
            body = _variants(_schemas(op.handler, 'body_schemas'),
                             op.window(), self.version)
            if body is None:
                continue
            if op.action:
                body = _marked(body, action_name=op.action)
            bodies.append(body)
        if not bodies:
            return None
        schema = bodies[0] if len(bodies) == 1 else {
            'anyOf': bodies, 'x-openstack': {'discriminator': 'action'}}
        return {'required': True, 'content': _content(schema)}

    def operation(self, ops):
        """The OpenAPI operation of ``ops``: one, or the actions of one
        action route."""
        first = ops[0]
        if first.action:
            resource = first.path.split('/')[1]
            operation_id = self._operation_id(
                first, '%s.action' % resource.replace('-', '_'))
            summary = 'The actions of %s: %s.' % (
                first.path, ', '.join(op.action for op in ops))
        else:
            operation_id = self._operation_id(first, first.operation_id)
            # The first line of the handler's docstring, else its name
            # (create_attachment: "Create attachment").
            summary = (first.handler.__doc__ or '').strip().split('\n')[0] \
                or first.handler.__name__.replace('_', ' ').capitalize() + '.'

        out = {'operationId': operation_id, 'summary': summary,
               'tags': [first.path.split('/')[1]]}
        lo, hi = (min(op.window()[0] for op in ops),
                  max(op.window()[1] for op in ops))
        if self.version is None and (lo, hi) != (self.api.service.min,
                                                 self.api.service.max):
            out['x-openstack'] = {'min-ver': str(lo), 'max-ver': str(hi)}
        params = [{'name': name, 'in': 'path', 'required': True,
                   'schema': {'type': 'string'}}
                  for name in first.path_parameters]
        if not first.action:
            params += _query_parameters(first, self.version)
        if params:
            out['parameters'] = params
        body = self._body(ops)
        if body is not None:
            out['requestBody'] = body
        out['responses'] = self._responses(ops)
        return out

    def document(self):
        service = self.api.service
        paths = {}
        grouped = {}
        for op in operations.of(service, self.api.resources):
            if self._served(op):
                grouped.setdefault((op.path, op.method), []).append(op)
        for (path, method), ops in grouped.items():
            paths.setdefault(self.api.prefix + path, {})[method.lower()] = \
                self.operation(ops)
        version = self.version
        return {
            'openapi': OPENAPI_VERSION,
            'info': {
                'title': self.api.title,
                'version': str(version or service.max),
                'description': (
                    'Generated by tether from its route table and the '
                    'schemas its handlers validate with and declare. '
                    'Every path is also served with the project after the '
                    'version (%s/{project_id}/...).' % self.api.prefix),
                'x-openstack': {
                    'min-ver': str(service.min), 'max-ver': str(service.max),
                    'service-type': service.service_type,
                    'microversion': _ver(version)},
            },
            'paths': paths,
            'components': {'schemas': {'fault': FAULT}},
        }


def document(api, version=None):
    """The description of ``api`` (an :class:`API`), of every
    microversion, or of ``version`` (a Version) alone."""
    return _Builder(api, version).document()


class Server:
    """``GET /openapi.json[?microversion=X]``: the description, its JSON
    kept for the last CACHED microversions asked for (a client that asks
    for every one in turn, without a token, holds no more than that)."""

    CACHED = 4

    def __init__(self, make_api):
        self.make_api = make_api
        self.cache = collections.OrderedDict()

    def __call__(self, req):
        api = self.make_api()
        asked = req.GET.get('microversion')
        version = None
        if asked is not None:
            try:
                version = microversion.parse(asked)
            except (TypeError, ValueError):
                version = None
            if version is None or not \
                    api.service.min <= version <= api.service.max:
                raise fault.HTTPError(
                    400, 'Invalid input for query parameters microversion. '
                         'Value: %s. It must be a microversion from %s to '
                         '%s.' % (asked[:100], api.service.min,
                                  api.service.max),
                    code=fault.VALIDATION_FAILED)
        key = _ver(version)
        body = self.cache.pop(key, None)
        if body is None:
            body = jsonutils.dump_as_bytes(document(api, version))
        self.cache[key] = body
        while len(self.cache) > self.CACHED:
            self.cache.popitem(last=False)
        resp = webob.Response(content_type='application/json',
                              charset='utf-8')
        resp.body = body
        return resp
