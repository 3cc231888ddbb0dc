"""JSON-schema validation of request bodies and query strings, per
microversion."""

import base64
import binascii
import functools
import json

import jsonschema
from oslo_serialization import jsonutils

from tether.api import fault
from tether.api import microversion
from tether.api import query as query_values

DB_MAX_INT = 0x7FFFFFFF
# How much of a refused value an error message repeats.
MAX_ECHOED = 200

# The query of a route that takes no parameters and, as Nova and Cinder
# do, ignores any it is sent.
IGNORED_QUERY = {'type': 'object', 'properties': {},
                 'additionalProperties': True}


def _bound(check):
    """``minimum``/``maximum`` that also bound integers sent as strings.

    Cinder's clients send sizes as "10"; without this a string of forty
    digits passed every check and overflowed the database.
    """
    def bounded(validator, bound, instance, schema):
        if isinstance(instance, str):
            try:
                instance = int(instance.strip())
            except ValueError:
                return  # not a number: the pattern or type reports it
        yield from check(validator, bound, instance, schema)
    return bounded


def _pattern_within_max_length(validator, pattern, instance, schema):
    """``pattern`` only on a string no longer than the schema's
    ``maxLength`` (which reports a longer one): a pattern never runs over
    more than its schema allows, however it was written."""
    if (isinstance(instance, str) and 'maxLength' in schema and
            len(instance) > schema['maxLength']):
        return
    yield from jsonschema.Draft7Validator.VALIDATORS['pattern'](
        validator, pattern, instance, schema)


# The formats the schemas name: Draft 7's (ipv4, ipv6 ...) and base64
# (user_data, as Nova checks it).
FORMATS = jsonschema.Draft7Validator.FORMAT_CHECKER
FORMATS = jsonschema.FormatChecker(list(FORMATS.checkers))


@FORMATS.checks('base64', raises=(binascii.Error, ValueError))
def _is_base64(value):
    if isinstance(value, str):
        base64.b64decode(value.encode('ascii'), validate=True)
    return True


Draft7 = jsonschema.validators.extend(jsonschema.Draft7Validator, {
    'minimum': _bound(jsonschema.Draft7Validator.VALIDATORS['minimum']),
    'maximum': _bound(jsonschema.Draft7Validator.VALIDATORS['maximum']),
    'pattern': _pattern_within_max_length,
})


def _drop_additional_properties(validator, allowed, instance, schema):
    """``additionalProperties: false`` as Nova's legacy v2 endpoint reads
    it: the properties the schema does not know are dropped from the
    body, not refused (they were ignored before v2.1)."""
    if allowed is not False or not validator.is_type(instance, 'object'):
        yield from jsonschema.Draft7Validator.VALIDATORS[
            'additionalProperties'](validator, allowed, instance, schema)
        return
    known = schema.get('properties', {})
    patterns = list(schema.get('patternProperties', {}))
    for key in [k for k in instance if k not in known and not any(
            validator.is_valid(k, {'pattern': p}) for p in patterns)]:
        del instance[key]


_LegacyV2 = jsonschema.validators.extend(Draft7, {
    'additionalProperties': _drop_additional_properties,
})


class _Validator:
    def __init__(self, schema):
        self.schema = schema
        cls = jsonschema.validators.validator_for(schema, Draft7)
        self._validator = cls(schema, format_checker=FORMATS)
        self._legacy_v2 = _LegacyV2(schema, format_checker=FORMATS)

    def validate(self, instance, what, legacy_v2=False):
        validator = self._legacy_v2 if legacy_v2 else self._validator
        if legacy_v2:
            # Drop first, then validate what is left (iter_errors is
            # lazy: an error found before a drop could name a property
            # that is about to go).
            for _error in validator.iter_errors(instance):
                pass
        error = jsonschema.exceptions.best_match(
            validator.iter_errors(instance))
        if error is None:
            return
        field = '/'.join(str(p) for p in error.absolute_path)
        if error.validator == 'additionalProperties':
            message = error.message
        elif error.validator == 'required':
            message = error.message
        else:
            # A parameter type may say in words what a pattern means.
            reason = error.message
            if error.validator in ('pattern', 'enum', 'type', 'format') and \
                    error.schema.get('description'):
                reason = 'It must be %s.' % error.schema['description']
            elif error.validator == 'maxLength':
                # jsonschema's message repeats the whole string.
                reason = 'It is %d characters long, more than %d.' % (
                    len(error.instance), error.validator_value)
            elif len(reason) > 2 * MAX_ECHOED:
                reason = reason[:2 * MAX_ECHOED] + '...'
            value = jsonutils.dumps(error.instance, default=str)
            if len(value) > MAX_ECHOED:
                value = '%s... (%d characters)' % (value[:MAX_ECHOED],
                                                   len(value))
            message = ('Invalid input for field/attribute %s. Value: %s. %s'
                       % (field or what, value, reason))
        if field and error.validator in ('additionalProperties', 'required'):
            message = 'Invalid input for field/attribute %s. %s' % (
                field, message)
        raise fault.HTTPError(400, message, code=fault.VALIDATION_FAILED)


def validator(schema):
    """A validator of ``schema`` for what a handler parses itself (JSON
    in a query parameter): its ``validate(data, what)`` raises the same
    400 as a body's schema."""
    return _Validator(schema)


def choose(schemas, version):
    """What of ``schemas`` (a list of ``(lo, hi, what)``) serves
    ``version``, or None."""
    for lo, hi, what in schemas:
        if (lo is None or version >= lo) and (hi is None or version <= hi):
            return what
    return None


def _declare(fn, attr, schema, min_version, max_version):
    lo = microversion.parse(min_version) if min_version else None
    hi = microversion.parse(max_version) if max_version else None
    schemas = getattr(fn, attr, None)
    if schemas is None:
        schemas = []
        setattr(fn, attr, schemas)
    schemas.append((lo, hi, _Validator(schema)))


def _validating(attr, read, store, what):
    """A decorator factory: validate what ``read(req)`` returns against the
    schema of the request's version window and store it on the request."""
    def declare(schema, min_version=None, max_version=None):
        def decorator(fn):
            if hasattr(fn, attr):
                target = fn
            else:
                @functools.wraps(fn)
                def target(req, *args, **kwargs):
                    validator = choose(getattr(target, attr),
                                       microversion.get(req))
                    data = read(req)
                    if validator is not None:
                        validator.validate(data, what,
                                           microversion.legacy_v2(req))
                    setattr(req, store, data)
                    return fn(req, *args, **kwargs)
                setattr(target, attr, [])
            _declare(target, attr, schema, min_version, max_version)
            return target
        return decorator
    return declare


# Stack one decorator per version window. The validated body is
# ``req.validated``, the validated query ``req.validated_query``.
body = _validating('body_schemas', lambda req: parse_json(req), 'validated',
                   'body')
query = _validating('query_schemas', lambda req: query_dict(req),
                    'validated_query', 'query')


def parse_json(req):
    if not req.body:
        raise fault.HTTPError(400, 'The request body is empty; a JSON '
                                   'object is required.',
                              code=fault.MALFORMED_BODY)
    content_type = (req.content_type or 'application/json').lower()
    if 'json' not in content_type:
        raise fault.HTTPError(415, 'Unsupported Content-Type %s: use '
                                   'application/json.' % req.content_type)
    try:
        data = jsonutils.loads(req.body)
        # A lone surrogate ("\ud800") decodes, but is no text to store.
        json.dumps(data, ensure_ascii=False).encode('utf-8')
        return data
    except RecursionError:
        raise fault.HTTPError(400, 'Malformed request body: nested too '
                                   'deeply.', code=fault.MALFORMED_BODY)
    except ValueError as exc:
        raise fault.HTTPError(400, 'Malformed request body: %s' % exc,
                              code=fault.MALFORMED_BODY)


def query_dict(req):
    try:
        get = req.GET
    except UnicodeDecodeError:
        raise fault.HTTPError(400, 'The query string is not valid UTF-8.',
                              code=fault.MALFORMED_QUERY)
    params = {}
    for key in get.keys():
        values = get.getall(key)
        params[key] = values[0] if len(values) == 1 else values
    query_values.limits(params)
    return params


def action(name, inner):
    """The body of an action: ``{name: <inner>}`` and nothing else (the
    action routes of both APIs)."""
    return {
        'type': 'object',
        'properties': {name: inner},
        'required': [name],
        'additionalProperties': False,
    }


# Parameter types -----------------------------------------------------------

# jsonschema's draft 7 does not check format "uuid": a pattern does.
uuid = {
    'description': 'a UUID (32 hexadecimal digits as 8-4-4-4-12)',
    'type': 'string',
    'pattern': '^[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-'
               '[0-9a-fA-F]{4}-[0-9a-fA-F]{12}$',
}
uuid_string = {'type': 'string', 'minLength': 1, 'maxLength': 255}


def string(min_length=0, max_length=255, nullable=False):
    t = {'type': ['string', 'null'] if nullable else 'string',
         'minLength': min_length, 'maxLength': max_length}
    return t


positive_integer = {
    'description': 'an integer from 1 to %d' % DB_MAX_INT,
    'type': ['integer', 'string'],
    # Leading zeros, then a digit that is not one: each character has one
    # way to match (``[0-9]*[1-9][0-9]*`` had n, and took 10 s over 30,000
    # digits).
    'pattern': '^ *0*[1-9][0-9]* *$', 'maxLength': 64,
    'minimum': 1, 'maximum': DB_MAX_INT,
}

non_negative_integer_string = {
    'description': 'a non-negative integer',
    'type': 'string', 'pattern': '^[0-9]+$', 'maxLength': 10,
}

quota_limit = {
    'description': '-1 (unlimited) or an integer from 0 to %d' % DB_MAX_INT,
    'type': ['integer', 'string'],
    'pattern': '^-?[0-9]+$',
    'minimum': -1, 'maximum': DB_MAX_INT,
}

boolean = {
    'description': 'a boolean (true/false, yes/no, 1/0, on/off)',
    'type': ['boolean', 'string'],
    'enum': [True, 'True', 'TRUE', 'true', '1', 'ON', 'On', 'on', 'YES',
             'Yes', 'yes', 'y', 't', False, 'False', 'FALSE', 'false', '0',
             'OFF', 'Off', 'off', 'NO', 'No', 'no', 'n', 'f'],
}

metadata = {
    'type': 'object',
    'patternProperties': {
        '^[a-zA-Z0-9-_:. /]{1,255}$': {'type': 'string', 'maxLength': 255},
    },
    'additionalProperties': False,
}

sort_param = {'description': 'key[:asc|desc][,key[:asc|desc]...]',
              'type': 'string', 'pattern': r'^[a-zA-Z_]+(:(asc|desc))?'
                                           r'(,[a-zA-Z_]+(:(asc|desc))?)*$'}
