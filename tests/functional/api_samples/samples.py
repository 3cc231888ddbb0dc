"""API samples: recorded exchanges that the functional tests replay and
compare, and that the API reference shows (tools/api_ref.py).

A sample is a JSON file under ``doc/api_samples/<api>/``, one exchange
each::

    {"request": {"method": "POST", "path": "/v3/%(project_id)s/attachments",
                 "version": "3.54", "body": {...}},
     "response": {"status": 200, "body": {...}}}

A test makes the request in code (``Samples.exchange``); the request must
be the sample's (with the values of ``subs`` as placeholders), and the
answer must match the sample's response: the same keys everywhere, the
same values, except that a placeholder in a string matches what it names:
a value of ``subs`` exactly, or any value of its kind (``%(uuid)s``,
``%(isotime)s``, ``%(host)s``, ``%(text)s``, ``%(int)s`` for a whole
value). A key with ``%(each)s`` stands for every key of the answer it
matches, none or many, each value matching the sample's (the quotas of
each volume type: ``volumes_%(each)s``, as many as the types the
session's tests made). ``TETHER_REGENERATE_SAMPLES=1`` writes the
samples from the answers instead (values of ``subs``, UUIDs, times and
the host's address made placeholders; %(each)s keys kept); read the diff
before committing it.
"""

import json
import os
import pathlib
import re

ROOT = pathlib.Path(__file__).resolve().parents[3]
SAMPLES = ROOT / 'doc' / 'api_samples'
REGENERATE = os.environ.get('TETHER_REGENERATE_SAMPLES') == '1'

KINDS = {
    'uuid': '[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}',
    'isotime': r'\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?'
               r'(Z|[+-]\d{2}:\d{2})?',
    'host': r'http://127\.0\.0\.1:\d+',
    'text': '.*',
}
PLACEHOLDER = re.compile(r'%\((\w+)\)s')
WHOLE_INT = '%(int)s'
EACH = '%(each)s'


class Mismatch(AssertionError):
    pass


def _pattern(template, subs):
    out, at = [], 0
    for match in PLACEHOLDER.finditer(template):
        out.append(re.escape(template[at:match.start()]))
        name = match.group(1)
        if name in subs:
            out.append(re.escape(str(subs[name])))
        elif name in KINDS:
            out.append('(?:%s)' % KINDS[name])
        else:
            raise Mismatch('the sample names %%(%s)s, which is neither given '
                           'nor a kind (%s)' % (name, ', '.join(KINDS)))
        at = match.end()
    out.append(re.escape(template[at:]))
    return '^%s$' % ''.join(out)


def _each(template, value, subs):
    """{key of the sample with %(each)s: [keys of the answer it stands
    for]}."""
    out = {}
    for key in template:
        if EACH in key:
            pattern = _pattern(key.replace(EACH, '%(text)s'), subs)
            out[key] = [c for c in value if re.match(pattern, c, re.S)]
    return out


def _keys(template, value, subs):
    """{key of the sample: key of the answer}: a key with a placeholder
    (a host's name, as in os-availability-zone/detail) is a pattern."""
    keys = {}
    for key in template:
        if EACH in key:
            continue
        if key in value and not PLACEHOLDER.search(key):
            keys[key] = key
            continue
        pattern = _pattern(key, subs)
        for candidate in value:
            if (candidate not in keys.values() and
                    re.match(pattern, candidate, re.S)):
                keys[key] = candidate
                break
    return keys


def match(template, value, subs, where='body'):
    """Raise Mismatch where ``value`` is not what ``template`` says."""
    if template == WHOLE_INT:
        if not isinstance(value, int) or isinstance(value, bool):
            raise Mismatch('%s: %r is no integer' % (where, value))
        return
    if isinstance(template, dict):
        if not isinstance(value, dict):
            raise Mismatch('%s: %r is no object' % (where, value))
        keys = _keys(template, value, subs)
        each = _each(template, value, subs)
        missing = sorted(set(template) - set(keys) - set(each))
        extra = sorted(set(value) - set(keys.values()) -
                       {c for found in each.values() for c in found})
        if missing or extra:
            raise Mismatch('%s: keys %s missing, %s not in the sample' % (
                where, missing, extra))
        for key, found in keys.items():
            match(template[key], value[found], subs, '%s/%s' % (where, found))
        for key, found in each.items():
            for candidate in found:
                match(template[key], value[candidate], subs,
                      '%s/%s' % (where, candidate))
    elif isinstance(template, list):
        if not isinstance(value, list) or len(value) != len(template):
            raise Mismatch('%s: %r is not a list of %d' % (
                where, value, len(template)))
        for index, (t, v) in enumerate(zip(template, value)):
            match(t, v, subs, '%s/%d' % (where, index))
    elif isinstance(template, str):
        if not isinstance(value, str) or not re.match(
                _pattern(template, subs), value, re.S):
            raise Mismatch('%s: %r does not match %r'
                           % (where, value, template))
    elif template != value or type(template) is not type(value):
        raise Mismatch('%s: %r is not %r' % (where, value, template))


def templated(value, subs):
    """``value`` with the values of ``subs`` and every UUID, time and host
    address made placeholders (for TETHER_REGENERATE_SAMPLES)."""
    if isinstance(value, dict):
        return {templated(k, subs): templated(v, subs)
                for k, v in value.items()}
    if isinstance(value, list):
        return [templated(v, subs) for v in value]
    if not isinstance(value, str):
        return value
    value = re.sub(KINDS['host'], '%(host)s', value)
    # A value given, where it is a whole word of the text ("2" in
    # ".../flavors/2", not in "127.0.0.1" or "v2.1").
    # A number given (an aggregate's id) is not the digits of "v2.1".
    for name, given in sorted(subs.items(), key=lambda i: -len(str(i[1]))):
        if str(given):
            edge = r'\w.-' if str(given).isdigit() else r'\w-'
            value = re.sub(r'(?<![%s])%s(?![%s])' % (
                edge, re.escape(str(given)), edge), '%%(%s)s' % name, value)
    for kind in ('isotime', 'uuid'):
        value = re.sub(KINDS[kind], '%%(%s)s' % kind, value)
    return value


def kept(old, new):
    """``new`` with the whole-value placeholders of ``old`` kept where
    they still match (%(int)s, %(text)s written by hand over what the
    host answers: its QEMU's version, its uptime)."""
    if old in (WHOLE_INT, '%(text)s'):
        try:
            match(old, new, {})
        except Mismatch:
            return new
        return old
    if isinstance(old, dict) and isinstance(new, dict):
        each = _each(old, new, {})
        folded = {c for found in each.values() for c in found}
        out = {k: kept(old[k], v) if k in old else v
               for k, v in new.items() if k not in folded}
        for key, found in each.items():
            if found:
                out[key] = kept(old[key], new[found[0]])
        return out
    if (isinstance(old, list) and isinstance(new, list) and
            len(old) == len(new)):
        return [kept(o, n) for o, n in zip(old, new)]
    return new


class Samples:
    """Exchanges of one API as one client (a tests.functional.fixtures
    HTTP session); ``subs`` holds what the samples name (project_id is
    the client's project)."""

    def __init__(self, api, http, **subs):
        self.api = api
        self.http = http
        self.subs = dict(subs, project_id=http.project, user_id=http.user)
        self.prefix = '/v3' if api == 'volume' else '/v2.1'

    def path(self, name):
        return SAMPLES / self.api / ('%s.json' % name)

    def exchange(self, name, method, path, body=None, version=None):
        """Send ``method path`` (under the client's project), compare the
        answer with sample ``name``; return the answer's JSON (or None)."""
        headers = {}
        if version:
            headers['OpenStack-API-Version'] = '%s %s' % (self.api, version)
        resp = self.http.request(method, path, json=body, headers=headers)
        answer = resp.json() if resp.content else None
        request = {'method': method,
                   'path': templated('%s/%s%s' % (
                       self.prefix, self.http.project, path), self.subs),
                   'version': version}
        if body is not None:
            request['body'] = templated(body, self.subs)
        response = {'status': resp.status_code}
        if answer is not None:
            response['body'] = answer
        sample_path = self.path(name)
        if REGENERATE or not sample_path.exists():
            written = templated(response, self.subs)
            if sample_path.exists():
                written = kept(json.loads(sample_path.read_text())[
                    'response'], written)
            sample_path.parent.mkdir(parents=True, exist_ok=True)
            sample_path.write_text(json.dumps(
                {'request': request, 'response': written},
                indent=4, sort_keys=True) + '\n')
            if not REGENERATE:
                raise Mismatch('%s did not exist: written from this answer; '
                               'read it, then commit it' % sample_path)
        sample = json.loads(sample_path.read_text())
        if sample['request'] != request:
            raise Mismatch('%s: the test sends %s, the sample says %s' % (
                name, request, sample['request']))
        match(sample['response'], response, self.subs, name)
        return answer
