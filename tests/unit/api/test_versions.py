"""The named microversions of both APIs agree with their history docs,
and the API trees name every version by its constant."""

import pathlib
import re

import pytest

from tether.api.compute import versions as compute_versions
from tether.api import microversion
from tether.api.volume import versions as volume_versions
from tether.compute import volume_client
from tether.volume import compute_client

ROOT = pathlib.Path(__file__).resolve().parents[3]
DOCS = ROOT / 'doc' / 'source'
APIS = {
    'volume': (volume_versions, DOCS / 'volume-api-versions.rst'),
    'compute': (compute_versions, DOCS / 'compute-api-versions.rst'),
}
VERSION = re.compile(r'^[23]\.\d+$')
# A row of a history table: the version at column 0, then its text.
ROW = re.compile(r'^([23]\.\d+) {2,}\S', re.M)
# A version written as a string literal.
LITERAL = re.compile(r'''(['"])[23]\.\d+\1''')


def test_the_latest_volume_version_is_3_71():
    assert volume_versions.MAX_VERSION == '3.71'
    assert volume_versions.MIN_VERSION == volume_versions.BASE == '3.0'


def test_the_latest_compute_version_is_2_97():
    assert compute_versions.MAX_VERSION == '2.97'
    assert compute_versions.MIN_VERSION == compute_versions.BASE == '2.1'


@pytest.mark.parametrize('api', sorted(APIS))
def test_the_service_serves_min_to_max(api):
    versions, _doc = APIS[api]
    assert versions.SERVICE.versions[0] == versions.MIN_VERSION
    assert versions.SERVICE.versions[-1] == versions.MAX_VERSION


def named(module):
    """{name: version} of a versions module's constants (without
    MIN_VERSION and MAX_VERSION, which are names of two of them)."""
    return {name: value for name, value in vars(module).items()
            if name.isupper() and isinstance(value, str) and
            VERSION.match(value) and
            name not in ('MIN_VERSION', 'MAX_VERSION')}


def documented(doc_text):
    """The versions of a history doc's table rows, in order."""
    return ROW.findall(doc_text)


def problems(constants, min_version, max_version, rows):
    """What disagrees between the named versions of an API
    (``constants``: {name: version}), its bounds and the rows of its
    history doc."""
    parse = microversion.parse
    lo, hi = parse(min_version), parse(max_version)
    found = []
    for name, value in sorted(constants.items()):
        if value not in rows:
            found.append('%s = %r has no row in the history' % (name, value))
        if not lo <= parse(value) <= hi:
            found.append('%s = %r is outside %s to %s'
                         % (name, value, min_version, max_version))
    twice = sorted({v for v in rows if rows.count(v) > 1})
    found += ['the history has two rows of %s' % v for v in twice]
    found += ['the history has a row of %s, above MAX_VERSION %s'
              % (v, max_version) for v in rows if parse(v) > hi]
    for bound, value in (('MIN_VERSION', min_version),
                         ('MAX_VERSION', max_version)):
        if value not in rows:
            found.append('%s %s has no row in the history' % (bound, value))
    return found


@pytest.mark.parametrize('api', sorted(APIS))
def test_every_named_version_has_its_history_row(api):
    versions, doc = APIS[api]
    assert problems(named(versions), versions.MIN_VERSION,
                    versions.MAX_VERSION, documented(doc.read_text())) == []


def test_the_history_check_finds_what_is_planted():
    """The check itself, on the volume API with planted mistakes: a
    constant without a row, one above the maximum, a row above the
    maximum, and a maximum without a row."""
    versions, doc = APIS['volume']
    rows = documented(doc.read_text())
    constants = dict(named(versions), PLANTED='3.70', PLANTED_LATER='3.72')
    found = problems(constants, versions.MIN_VERSION, versions.MAX_VERSION,
                     rows + ['3.72'])
    assert "PLANTED = '3.70' has no row in the history" in found
    assert "PLANTED_LATER = '3.72' is outside 3.0 to 3.71" in found
    assert 'the history has a row of 3.72, above MAX_VERSION 3.71' in found
    assert not any('PLANTED_LATER' in p and 'no row' in p for p in found)
    # A maximum raised without its row, and a row twice.
    found = problems(named(versions), versions.MIN_VERSION, '3.72',
                     rows + ['3.27'])
    assert 'the history has two rows of 3.27' in found
    assert 'MAX_VERSION 3.72 has no row in the history' in found


def test_the_rows_are_read_from_column_0_of_the_tables():
    text = ('3.0 to 3.71 in prose is no row.\n\n'
            '====== ====\n'
            '3.12   A row.\n'
            '       3.13 in a row\'s text is no row.\n'
            '3.13   Another row.\n'
            '====== ====\n')
    assert documented(text) == ['3.12', '3.13']


def literals(paths):
    """``path:line: literal`` of every version written as a string."""
    found = []
    for path in paths:
        for number, line in enumerate(path.read_text().splitlines(), 1):
            for match in LITERAL.finditer(line):
                found.append('%s:%d: %s' % (path, number, match.group(0)))
    return found


def _api_sources():
    for api in sorted(APIS):
        for path in sorted((ROOT / 'tether' / 'api' / api).rglob('*.py')):
            if path.name != 'versions.py':
                yield path


def test_the_apis_name_every_version():
    """Handlers, schemas and views use versions.NAME, never '3.42'."""
    assert literals(_api_sources()) == []


def test_the_literal_check_finds_what_is_planted(tmp_path):
    planted = tmp_path / 'handler.py'
    planted.write_text(
        'from tether.api.volume import versions\n'
        '\n'
        '@microversion.version_window(versions.ATTACHMENTS)\n'
        '@validation.body(schema.CREATE, "3.27", \'3.53\')\n'
        'def create(req):\n'
        '    # From 3.42 (a comment may say the number).\n'
        "    return microversion.at_least(req, '2.9')\n")
    assert literals([planted]) == [
        '%s:4: "3.27"' % planted, "%s:4: '3.53'" % planted,
        "%s:7: '2.9'" % planted]


# The versions each service's client sends to the other's API: named in
# the client (the services never import each other), and each one a
# version the other API names for that feature.
@pytest.mark.parametrize('sent,served', [
    (volume_client.ATTACH_VERSION, volume_versions.ATTACHMENT_COMPLETE),
    (volume_client.ATTACHMENT_MODE_VERSION, volume_versions.ATTACHMENT_MODE),
    (volume_client.EXTEND_COMPLETION_VERSION,
     volume_versions.EXTEND_COMPLETION),
    (compute_client.ATTACHMENT_ID_VERSION, compute_versions.ATTACHMENT_IDS),
    (compute_client.EXTEND_EVENT_VERSION,
     compute_versions.VOLUME_EXTENDED_EVENT),
    (compute_client.REIMAGE_EVENT_VERSION, compute_versions.VOLUME_REBUILD),
    (volume_client.REIMAGE_VERSION, volume_versions.REIMAGE),
])
def test_clients_send_versions_the_other_api_names(sent, served):
    assert sent == served


def test_the_extend_size_header_is_the_one_the_compute_api_reads():
    # The volume service's client names it; the compute API's handler
    # reads it (the services never import each other).
    from tether.api.compute.handlers import server_external_events
    assert (compute_client.EXTEND_SIZE_HEADER ==
            server_external_events.EXTEND_SIZE_HEADER)
