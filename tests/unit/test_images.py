"""What the image API said when it refused a request, from its JSON or
its HTML fault (Glance's webob pages)."""

import hashlib
import os

from oslo_config import cfg
import pytest

from tether import conf  # noqa: F401 - registers [image]
from tether import exception
from tether import image_checks
from tether import images

CONF = cfg.CONF


class _Response:
    """An HTTP response as requests gives it (a process edge)."""

    def __init__(self, status_code, text, json_body=None):
        self.status_code = status_code
        self.text = text
        self._json = json_body

    def json(self):
        if self._json is None:
            raise ValueError('not JSON')
        return self._json


GLANCE_PAGE = '''<html>
 <head>
  <title>403 Forbidden</title>
 </head>
 <body>
  <h1>403 Forbidden</h1>
  Access was denied to this resource.<br /><br />
Attribute &#x27;os_glance_x&#x27; is reserved.


 </body>
</html>'''


@pytest.mark.parametrize('resp,reason', [
    (_Response(403, GLANCE_PAGE),
     "Access was denied to this resource. Attribute 'os_glance_x' is "
     "reserved. (403)"),
    (_Response(400, '{}', {'message': 'Bad name', 'code': '400'}),
     'Bad name (400)'),
    (_Response(413, 'plain text\nover limit'), 'plain text over limit (413)'),
], ids=['html', 'json', 'text'])
def test_the_reason_of_a_refusal(resp, reason):
    assert images._reason(resp) == reason


# The image API's own file, read where this host may ---------------------

@pytest.fixture
def store(tmp_path):
    """A filesystem store with one image's file, and the options that let
    tether read it (put back afterwards)."""
    directory = tmp_path / 'images'
    directory.mkdir()
    (directory / 'img').write_bytes(b'image data')
    before = (CONF.image.allowed_direct_url_schemes,
              CONF.image.direct_url_file_dirs)
    CONF.set_override('allowed_direct_url_schemes', ['file'], group='image')
    CONF.set_override('direct_url_file_dirs', [str(directory)],
                      group='image')
    yield directory
    CONF.set_override('allowed_direct_url_schemes', before[0], group='image')
    CONF.set_override('direct_url_file_dirs', before[1], group='image')


def _local(url):
    return images.ImageClient(None, None).local_file(
        {'id': 'img', 'direct_url': url})


def test_a_file_of_the_store_is_read_where_it_lies(store):
    assert _local('file://%s/img' % store) == str(store / 'img')


def test_no_direct_url_or_one_of_another_scheme_means_a_download(store):
    assert _local(None) is None
    assert _local('rbd://fsid/images/img/snap') is None
    assert _local('http://example.com/img') is None


def test_file_urls_are_not_read_unless_the_scheme_is_allowed(store):
    CONF.set_override('allowed_direct_url_schemes', [], group='image')
    assert _local('file://%s/img' % store) is None


@pytest.mark.parametrize('where', [
    '/etc/hostname',                        # a file of the host
    '{store}/../outside',                   # out of the store by ..
    '{store}/link',                         # out of it by a symbolic link
    '{store}/missing',                      # gone (the image deleted)
    '{store}',                              # not a file
])
def test_a_url_to_anything_but_a_file_in_the_store_is_not_read(
        store, where):
    (store.parent / 'outside').write_bytes(b'host data')
    (store / 'link').symlink_to(store.parent / 'outside')
    assert _local('file://' + where.format(store=store)) is None


def _image_of(data, algo='sha256'):
    return {'id': 'img', 'size': len(data), 'os_hash_algo': algo,
            'os_hash_value': hashlib.new(algo, data).hexdigest(),
            'checksum': hashlib.md5(data).hexdigest()}


def test_a_file_that_is_what_the_image_api_recorded_passes(tmp_path):
    path = tmp_path / 'img'
    path.write_bytes(b'image data' * 1000)
    image_checks.FileCheck(_image_of(path.read_bytes()), str(path)).wait()


@pytest.mark.parametrize('change, reason', [
    (lambda data: data[:-1] + b'X', 'its sha256 hash is not the one'),
    (lambda data: data + b'more', 'bytes came, the image API recorded'),
])
def test_a_file_that_changed_is_corrupt(tmp_path, change, reason):
    path = tmp_path / 'img'
    data = os.urandom(3 * 1024 * 1024)
    image = _image_of(data)
    path.write_bytes(change(data))
    with pytest.raises(exception.ImageCorrupt, match=reason):
        image_checks.FileCheck(image, str(path)).wait()


def test_a_file_found_good_is_not_read_again_until_it_changes(
        tmp_path, monkeypatch):
    path = tmp_path / 'img'
    data = os.urandom(1024 * 1024)
    path.write_bytes(data)
    image = _image_of(data, 'sha512')
    reads = []
    check = image_checks.FileCheck._check
    monkeypatch.setattr(image_checks.FileCheck, '_check',
                        lambda self, f: reads.append(1) or check(self, f))
    image_checks.FileCheck(image, str(path)).wait()
    image_checks.FileCheck(image, str(path)).wait()
    assert len(reads) == 1
    # Written in place, same size: its change time moves, and the next
    # check reads it again and finds it corrupt.
    with open(path, 'r+b') as f:
        f.write(b'tampered')
    with pytest.raises(exception.ImageCorrupt):
        image_checks.FileCheck(image, str(path)).wait()
    assert len(reads) == 2


def test_a_file_that_cannot_be_read_fails_the_check(tmp_path):
    with pytest.raises(exception.ImageServiceUnavailable,
                       match='could not be read'):
        image_checks.FileCheck(_image_of(b'x'), str(tmp_path / 'gone')).wait()
