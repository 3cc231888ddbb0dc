"""Every error a client can get has a stable error code of its own,
listed in doc/source/errors.rst; and every exception is used."""

import pathlib
import re

from tether.api import actions
from tether.api import fault
from tether.api import responses
from tether.compute import aggregate_exception
from tether.compute import exception as compute_exception
from tether.compute import flavor_exception
from tether.compute import image_exception
from tether.compute import keypair_exception
from tether.compute import server_group_exception
from tether.compute import quota_exception
from tether.compute import share_exception
from tether import exception
from tether.volume import backup_exception
from tether.volume import exception as volume_exception

ROOT = pathlib.Path(__file__).resolve().parents[3]
DOC = ROOT / 'doc' / 'source' / 'errors.rst'
# Each module's codes start with its prefix.
MODULES = {exception: 'tether.', volume_exception: 'volume.',
           backup_exception: 'volume.',
           compute_exception: 'compute.', share_exception: 'compute.',
           keypair_exception: 'compute.', flavor_exception: 'compute.',
           image_exception: 'compute.', server_group_exception: 'compute.',
           aggregate_exception: 'compute.', quota_exception: 'compute.'}
CODE = re.compile(r'^[a-z]+(\.[a-z_]+)+$')


def exception_classes(module):
    """The exceptions a module defines (not those it names again)."""
    return [obj for obj in vars(module).values()
            if isinstance(obj, type) and
            issubclass(obj, exception.TetherException) and
            obj.__module__ == module.__name__]


def framework_codes():
    codes = {value for name, value in vars(fault).items()
             if name.isupper() and isinstance(value, str)}
    return codes | set(fault.CODE_BY_STATUS.values()) | {
        actions.UNKNOWN_ACTION, actions.UNSERVED_ACTION,
        responses.RESPONSE_INVALID}


def documented_codes(text):
    """The codes of the tables' rows (a code, then its status)."""
    return set(re.findall(r'^``([a-z_.]+)``\s{2,}(?:\d{3}|\u2014)', text,
                          flags=re.M))


def problems(modules, framework, doc_text, sources):
    """What is wrong with the error codes: exceptions without a code of
    their own, with a code of another module's prefix or shape, codes
    twice, codes not documented, documented codes of nothing, exceptions
    named by no source but their own module's (``sources``: {path:
    text})."""
    found = []
    owner = {}
    for module, prefix in modules.items():
        for cls in exception_classes(module):
            code = cls.__dict__.get('error_code')
            if code is None:
                found.append('%s has no error_code of its own'
                             % cls.__name__)
                continue
            if not CODE.match(code) or not code.startswith(prefix):
                found.append('%s: %s is not %s<resource>.<problem>'
                             % (cls.__name__, code, prefix))
            if code in owner:
                found.append('%s: %s is also the code of %s'
                             % (cls.__name__, code, owner[code]))
            owner[code] = cls.__name__
            used = [path for path, text in sources.items()
                    if path != module.__file__ and
                    re.search(r'\b%s\b' % cls.__name__, text)]
            if not used:
                found.append('%s is raised and caught nowhere'
                             % cls.__name__)
    codes = set(owner) | set(framework)
    documented = documented_codes(doc_text)
    found += ['%s is not in errors.rst' % c for c in sorted(codes -
                                                            documented)]
    found += ['errors.rst lists %s, the code of nothing' % c
              for c in sorted(documented - codes)]
    return found


def _sources():
    return {str(path): path.read_text()
            for path in (ROOT / 'tether').rglob('*.py')}


def test_every_error_has_a_documented_code():
    assert problems(MODULES, framework_codes(), DOC.read_text(),
                    _sources()) == []


def test_the_check_finds_what_is_planted(tmp_path):
    """The check itself: a planted exception without a code, one with a
    code of the wrong service, an unused one, and a stale doc entry."""
    planted = type(volume_exception)('tether.volume.planted')
    planted.__file__ = str(tmp_path / 'planted.py')

    class NoCode(exception.Invalid):
        pass

    class WrongPrefix(exception.Invalid):
        error_code = 'compute.volume.planted'

    for cls in (NoCode, WrongPrefix):
        cls.__module__ = planted.__name__
        setattr(planted, cls.__name__, cls)
    doc = DOC.read_text() + '\n``volume.planted.stale``  400  Nothing.\n'
    sources = _sources()
    sources[str(tmp_path / 'user.py')] = 'raise WrongPrefix()'
    found = problems({planted: 'volume.'}, set(), doc, sources)
    assert 'NoCode has no error_code of its own' in found
    assert ('WrongPrefix: compute.volume.planted is not '
            'volume.<resource>.<problem>') in found
    assert not any('WrongPrefix is raised and caught nowhere' in p
                   for p in found)
    assert 'errors.rst lists volume.planted.stale, the code of nothing' \
        in found
    # Without a user, the class is unused.
    del sources[str(tmp_path / 'user.py')]
    assert 'WrongPrefix is raised and caught nowhere' in problems(
        {planted: 'volume.'}, set(), doc, sources)
