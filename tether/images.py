"""The image API (Glance v2) as both services call it, through
openstacksdk's session (``[image]``, see tether.clients).

A call made for a user acts with the user's token (:func:`for_caller`),
so the image API decides what the user may see, download and create; a
call with no user behind it (a restart that takes up a half done
download) acts as the service (:func:`as_service`). Images are plain
dicts: the image API's own JSON, properties and all.

Downloads are checked against what the image API recorded (see
tether.image_data); a mismatch is ImageCorrupt (and a file downloaded
to is gone). They go to a file (:meth:`ImageClient.download`) or to the caller
as they come (:meth:`ImageClient.chunks`).
Uploads stream a file into an image the caller created (``queued``).
"""

import html
import os
import re
import stat
import urllib.parse

from keystoneauth1 import exceptions as ks_exc
from oslo_log import log as logging
from oslo_utils import uuidutils
import requests

from tether import clients
from tether import exception
from tether import image_data

LOG = logging.getLogger(__name__)

PEER = clients.Peer('image', 'image', '2')
CHUNK = image_data.CHUNK
# The disk formats of images a user may supply (Glance's names), which
# tether.drivers.qemu_img reads. Here, not there, for the API processes
# that refuse the others: the driver and its format inspector stay out
# of them.
SOURCE_FORMATS = ('raw', 'qcow2', 'vmdk', 'vdi', 'vhd', 'vhdx', 'iso')
# The image API's JSON patch, in which "add" replaces a value there.
PATCH_TYPE = 'application/openstack-images-v2.1-json-patch'


class ImageClient:
    def __init__(self, proxy, request_id):
        self.proxy = proxy
        self.request_id = request_id

    def _request(self, method, url, image_id, missing=(404,),
                 explain_forbidden=False, conflict=None, **kwargs):
        from openstack import exceptions as sdk_exc  # see tether.clients

        try:
            resp = self.proxy.request(url, method,
                                      global_request_id=self.request_id,
                                      raise_exc=False,
                                      timeout=PEER.conf.read_timeout,
                                      **kwargs)
        except (sdk_exc.SDKException, ks_exc.ClientException) as exc:
            raise exception.ImageServiceUnavailable(reason=exc)
        if resp.status_code in missing:
            raise exception.ImageNotFound(image_id=image_id)
        if resp.status_code in (401, 403):
            if explain_forbidden:
                raise exception.ImageNotAuthorized(
                    message='The image API refused: %s' % _reason(resp))
            raise exception.ImageNotAuthorized(image_id=image_id)
        if resp.status_code == 409 and conflict is not None:
            raise conflict
        if resp.status_code in (400, 409):
            raise exception.ImageRefused(reason=_reason(resp))
        if resp.status_code == 413:
            raise exception.ImageLimitExceeded(reason=_reason(resp))
        if resp.status_code >= 400:
            raise exception.ImageServiceUnavailable(
                reason='%s %s answered %s: %s' % (
                    method, url, resp.status_code, resp.text[:200]))
        return resp

    def get(self, image_id):
        """The image (a dict), or ImageNotFound."""
        if not uuidutils.is_uuid_like(image_id):
            # The image API would answer 404 after a round trip.
            raise exception.ImageNotFound(image_id=image_id)
        return self._request('GET', '/images/%s' % image_id,
                             image_id).json()

    def find(self, ref):
        """The image an id, a URL ending with an id, or a unique name
        names (as Cinder reads ``imageRef``); ImageNotFound or
        ImageNameAmbiguous."""
        image_id = ref.rstrip('/').rpartition('/')[2]
        if uuidutils.is_uuid_like(image_id):
            try:
                return self.get(image_id)
            except (exception.ImageNotFound, exception.ImageNotAuthorized):
                pass
        # A name the image API cannot filter by (it reads "x:y" as the
        # operator x) is the name of no image.
        found = self._request('GET', '/images', ref, missing=(400, 404),
                              params={'name': ref}).json()['images']
        if len(found) > 1:
            raise exception.ImageNameAmbiguous(name=ref)
        if not found:
            raise exception.ImageNotFound(image_id=ref)
        return found[0]

    def list(self, **filters):
        """The images the caller sees that match ``filters`` (the image
        API's query: properties, ``sort_key``, ``sort_dir`` ...), every
        page of them."""
        return self.page(None, **filters)

    def page(self, limit, marker=None, **filters):
        """The first ``limit`` (None: all) images the caller sees that
        match ``filters``, after the image ``marker`` (the image API's
        order: newest first). A marker the image API does not know is
        its 400 (ImageRefused)."""
        found, url = [], '/images'
        params = dict(filters, limit=min(limit or 100, 100))
        if marker is not None:
            params['marker'] = marker
        while url and (limit is None or len(found) < limit):
            page = self._request('GET', url, 'images', missing=(),
                                 params=params).json()
            found.extend(page['images'])
            # The next page's URL carries the query (and the marker).
            url = page.get('next')
            if url:
                url = url[len('/v2'):] if url.startswith('/v2/') else url
                params = None
        return found if limit is None else found[:limit]

    def create(self, values):
        """A new image record (``queued``, no data yet) of ``values``:
        name, disk and container format, visibility, protected and
        properties, as the image API takes them. Its owner is the
        caller's project."""
        return self._request('POST', '/images', values.get('name'),
                             explain_forbidden=True, json=values).json()

    def upload(self, image_id, path):
        """Stream the file ``path`` into the image ``image_id`` (one the
        caller created, still ``queued``): the image API stores it and
        makes the image ``active``."""
        with open(path, 'rb') as f:
            self._request('PUT', '/images/%s/file' % image_id, image_id,
                          data=f, headers={
                              'Content-Type': 'application/octet-stream'})

    def upload_data(self, image_id, data):
        """Store ``data`` (bytes) as the data of the image ``image_id``
        (queued); ``b''`` makes an image of properties only active."""
        self._request('PUT', '/images/%s/file' % image_id, image_id,
                      data=data, headers={
                          'Content-Type': 'application/octet-stream'})

    def root(self):
        """The image API's URL without its version (as Nova gives the
        image API's URLs)."""
        return re.sub(r'/v\d+(\.\d+)?$', '',
                      self.proxy.get_endpoint().rstrip('/'))

    def url(self, image_id):
        """The image's URL at the image API (Nova's Location of a
        snapshot before 2.45, the ``alternate`` link of an image)."""
        return '%s/images/%s' % (self.root(), image_id)

    def update_properties(self, image_id, values=None, remove=(),
                          absent=None):
        """Set the properties ``values`` (a dict) of the image and remove
        those named in ``remove``, in one request (the image API applies
        all or none); the image after. ``absent``: what to raise when a
        property to remove is not there (the image API's 409)."""
        changes = [{'op': 'remove', 'path': _pointer(key)}
                   for key in remove]
        changes += [{'op': 'add', 'path': _pointer(key), 'value': value}
                    for key, value in (values or {}).items()]
        return self._request(
            'PATCH', '/images/%s' % image_id, image_id, json=changes,
            conflict=absent, headers={
                'Content-Type': PATCH_TYPE}).json()

    def delete(self, image_id, protected=False):
        """Delete the image; ImageNotFound if it is gone already. A
        ``protected`` image is unprotected first (the image API refuses
        to delete it otherwise)."""
        if protected:
            self._request(
                'PATCH', '/images/%s' % image_id, image_id,
                json=[{'op': 'replace', 'path': '/protected',
                       'value': False}],
                headers={'Content-Type': PATCH_TYPE})
        self._request('DELETE', '/images/%s' % image_id, image_id)

    def chunks(self, image):
        """The data of ``image`` (a dict from :meth:`get`), as it comes:
        an iterator of byte strings that raises ImageCorrupt at its end
        if the size or the hash is not what the image API recorded (the
        caller must not trust what it got before then), and
        ImageServiceUnavailable if the download breaks off. The hash is
        computed in a thread of its own, beside the reading."""
        image_id = image['id']
        digest, expected = image_data.recorded_hash(image)
        resp = self._request('GET', '/images/%s/file' % image_id, image_id,
                             stream=True)
        hasher = image_data.Hasher(digest) if digest is not None else None
        size = 0
        try:
            with resp:
                for chunk in resp.iter_content(CHUNK):
                    size += len(chunk)
                    if hasher is not None:
                        hasher.update(chunk)
                    yield chunk
        except requests.RequestException as exc:
            raise exception.ImageServiceUnavailable(
                reason='the download of image %s broke off: %s'
                       % (image_id, exc))
        finally:
            hexdigest = hasher.finish() if hasher is not None else None
        image_data.check_recorded(image, size, digest, hexdigest, expected)

    def download(self, image, path):
        """Write the data of ``image`` (a dict from :meth:`get`) to the
        new file ``path``, checked; returns its size in bytes."""
        size = 0
        with open(path, 'xb') as f:
            try:
                for chunk in self.chunks(image):
                    f.write(chunk)
                    size += len(chunk)
            except BaseException:
                _remove(path)
                raise
        return size

    def local_file(self, image):
        """The path of the file that holds the data of ``image`` (a dict
        from :meth:`get`) in the image API's filesystem store, where this
        host may read it (``[image] allowed_direct_url_schemes`` has
        ``file`` and the file lies in one of ``[image]
        direct_url_file_dirs``), else None: then the data comes through
        the image API. The image API shows the URL only with its
        ``show_image_direct_url``. The file is not trusted either: see
        :class:`tether.image_data.FileCheck`."""
        conf = PEER.conf
        url = image.get('direct_url')
        if not url or 'file' not in conf.allowed_direct_url_schemes:
            return None
        parsed = urllib.parse.urlparse(url)
        if parsed.scheme != 'file':
            return None
        path = os.path.realpath(urllib.parse.unquote(parsed.path))
        for directory in conf.direct_url_file_dirs:
            if os.path.commonpath(
                    [path, os.path.realpath(directory)]) == \
                    os.path.realpath(directory):
                break
        else:
            LOG.warning('Image %s is in %s, in none of [image] '
                        'direct_url_file_dirs: it is downloaded through '
                        'the image API', image['id'], path)
            return None
        try:
            st = os.stat(path)
        except OSError as exc:
            LOG.info('Image %s: its file %s cannot be read here (%s): it '
                     'is downloaded through the image API', image['id'],
                     path, exc)
            return None
        if not stat.S_ISREG(st.st_mode) or not os.access(path, os.R_OK):
            LOG.info('Image %s: %s is not a file this host may read: it is '
                     'downloaded through the image API', image['id'], path)
            return None
        return path


def _reason(resp):
    """What the image API said when it refused a request: the message of
    its JSON fault, or the text of its HTML page (Glance's webob faults)
    after the title."""
    try:
        message = resp.json().get('message')
    except (ValueError, AttributeError):
        message = None
    if not message:
        text = re.sub(r'(?s)^.*</h1>', '', resp.text)
        text = html.unescape(re.sub(r'<[^>]+>', ' ', text))
        message = ' '.join(text.split())[:300]
    return '%s (%s)' % (message, resp.status_code)


def _pointer(key):
    """The JSON pointer of a property (RFC 6901)."""
    return '/' + key.replace('~', '~0').replace('/', '~1')


def _remove(path):
    try:
        os.unlink(path)
    except FileNotFoundError:
        pass


def _unavailable(reason):
    return exception.ImageServiceUnavailable(reason=reason)


def for_caller(context):
    """A client acting with the caller's token, at the image API of the
    caller's catalog."""
    return ImageClient(PEER.reach(_unavailable, context.auth_token,
                                  context.service_catalog),
                       clients.request_id(context))


def as_service(context):
    """A client acting with this service's own credentials."""
    return ImageClient(PEER.reach(_unavailable),
                       clients.request_id(context))


def for_context(context):
    """The caller's client where the context carries a token (a request,
    or a message a request sent), else the service's."""
    if context.auth_token:
        return for_caller(context)
    return as_service(context)
