"""The image service of tether-aio: a real Glance, reached with
openstacksdk as users reach it (noauth tokens, clouds.yaml)."""

import hashlib
import io

DATA = b'tether image bytes ' * 4096


def test_a_user_uploads_lists_and_downloads_an_image(aio):
    user = aio.sdk()
    image = user.image.create_image(
        name='img-%s' % user.test_project, data=io.BytesIO(DATA),
        disk_format='raw', container_format='bare')
    image = user.image.get_image(image.id)
    assert image.status == 'active'
    assert image.owner == user.test_project
    assert image.size == len(DATA)
    # The aio's Glance records sha256 (hashing_algorithm).
    assert image.hash_algo == 'sha256'
    assert image.hash_value == hashlib.sha256(DATA).hexdigest()
    assert image.id in [i.id for i in user.image.images()]
    assert user.image.download_image(image).content == DATA
    # Another project does not see it; an administrator does.
    other = aio.sdk()
    assert image.id not in [i.id for i in other.image.images()]
    assert image.id in [i.id for i in aio.admin().image.images()]
    user.image.delete_image(image)
    assert image.id not in [i.id for i in user.image.images()]
