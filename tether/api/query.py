"""Values a client sends in a query string that a schema cannot check
alone: parsed here, once for every handler, bounded before they are
parsed, and each failure a 400 that names the parameter.

:func:`limits` bounds the query as a whole (validation.query_dict calls
it): how many parameters, how long a value, no NUL (a database refuses
it in text, PostgreSQL with an error).
"""

import ast
import json

from oslo_utils import timeutils

from tether.api import fault

MAX_PARAMETERS = 64
MAX_VALUE_LENGTH = 8192
# A structured filter (metadata={"k": "v"}): its text, its keys, and the
# text of each key and value (the database columns hold 255).
MAX_FILTER_LENGTH = 4096
MAX_FILTER_KEYS = 32
MAX_FILTER_TEXT = 255


def _refuse(name, value, reason):
    shown = value if len(value) <= 100 else value[:100] + '...'
    raise fault.HTTPError(
        400, 'Invalid input for query parameters %s. Value: %s. %s'
        % (name, shown, reason), code=fault.VALIDATION_FAILED)


def limits(params):
    """BadRequest unless ``params`` (name -> value or list of values) is
    within MAX_PARAMETERS parameters of MAX_VALUE_LENGTH characters, none
    with a NUL."""
    if len(params) > MAX_PARAMETERS:
        raise fault.HTTPError(
            400, 'The query string has %d parameters; at most %d are '
                 'taken.' % (len(params), MAX_PARAMETERS),
            code=fault.VALIDATION_FAILED)
    for name, values in params.items():
        if len(name) > MAX_VALUE_LENGTH or '\x00' in name:
            _refuse(name[:100], '', 'It is no parameter name.')
        for value in values if isinstance(values, list) else [values]:
            if len(value) > MAX_VALUE_LENGTH:
                _refuse(name, value, 'It is %d characters long, more than '
                                     '%d.' % (len(value), MAX_VALUE_LENGTH))
            if '\x00' in value:
                _refuse(name, value.replace('\x00', '\\x00'),
                        'It must not contain a NUL character.')


def iso_time(params, name):
    """The naive UTC datetime of the ISO 8601 date and time
    ``params[name]``, or None without one. Dates at the edge of the
    calendar that overflow once moved to UTC are refused as any other
    value that is no date."""
    if name not in params:
        return None
    value = params[name]
    try:
        return timeutils.normalize_time(timeutils.parse_isotime(value))
    except (ValueError, OverflowError, TypeError):
        _refuse(name, str(value), 'It must be an ISO 8601 date and time.')


def _is_text(value):
    return (isinstance(value, str) and len(value) <= MAX_FILTER_TEXT and
            '\x00' not in value and _encodes(value))


def _encodes(value):
    try:
        value.encode('utf-8')   # a lone surrogate ("\ud800") does not
    except UnicodeEncodeError:
        return False
    return True


def string_map(params, name):
    """The key/value filter ``params[name]``, a dict of strings, or None
    without one: a JSON object, or the Python literal that cinderclient
    sends (``{'k': 'v'}``), of at most MAX_FILTER_KEYS keys, each key and
    value text of at most MAX_FILTER_TEXT characters. The text is bounded
    before it is parsed."""
    if name not in params:
        return None
    text = params[name]
    usage = ('It must be an object of at most %d strings of at most %d '
             'characters each, like {"k": "v"}.'
             % (MAX_FILTER_KEYS, MAX_FILTER_TEXT))
    if not isinstance(text, str) or len(text) > MAX_FILTER_LENGTH:
        _refuse(name, str(text), usage)
    try:
        value = json.loads(text)
    except (ValueError, RecursionError):
        try:
            value = ast.literal_eval(text)
        except (ValueError, TypeError, SyntaxError, MemoryError,
                RecursionError):
            _refuse(name, text, usage)
    if (not isinstance(value, dict) or len(value) > MAX_FILTER_KEYS or
            not all(_is_text(k) and _is_text(v) for k, v in value.items())):
        _refuse(name, text, usage)
    return value
