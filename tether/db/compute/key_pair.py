"""Queries on key pairs; rows leave this module as KeyPair objects. A
create and a delete change the user's ``key_pairs`` usage in the same
transaction."""

from oslo_db import api as oslo_db_api
from oslo_db import exception as db_exc
import sqlalchemy as sa

from tether.compute import exception
from tether.compute import keypair_exception
from tether.db.compute import models
from tether.db.compute import quota
from tether.db import keyset
from tether.db import session
from tether.objects.compute import key_pair as key_pair_obj

db = session.COMPUTE
KeyPair = models.KeyPair
RESOURCE = 'key_pairs'


def _query(user_id):
    return sa.select(KeyPair).where(KeyPair.user_id == user_id)


@db.reader
def get(context, user_id, name):
    row = context.session.scalars(
        _query(user_id).where(KeyPair.name == name)).first()
    if row is None:
        raise keypair_exception.KeypairNotFound(name=name, user_id=user_id)
    return key_pair_obj.KeyPair.from_db(row)


@db.reader
def get_all(context, user_id, limit=None, marker=None):
    """A page of the user's key pairs, oldest first; ``marker`` is the
    name of the last key pair of the page before."""
    rows = keyset.page(
        context.session, _query(user_id), KeyPair, ['id'], ['asc'],
        marker=marker, marker_query=_query(user_id),
        marker_key=KeyPair.name,
        not_found=lambda m: exception.InvalidInput(
            reason='marker [%s] not found' % m),
        limit=limit)
    return [key_pair_obj.KeyPair.from_db(row) for row in rows]


def _is_usage_row(exc):
    # The user's first key pair: two transactions made the usage row.
    return (isinstance(exc, db_exc.DBDuplicateEntry) and
            'resource' in (exc.columns or ()))


@oslo_db_api.wrap_db_retry(max_retries=5, exception_checker=_is_usage_row)
@db.writer
def create(context, values, limit):
    """Insert a key pair counted against the user's ``key_pairs`` quota
    (``limit``, -1: none): KeypairLimitExceeded at the limit,
    KeyPairExists for a name the user has."""
    user_id = values['user_id']
    if quota.consume(context, {RESOURCE: 1}, {RESOURCE: limit},
                     user_id=user_id):
        raise keypair_exception.KeypairLimitExceeded()
    row = KeyPair(**values)
    try:
        with context.session.begin_nested():
            context.session.add(row)
    except db_exc.DBDuplicateEntry:
        raise keypair_exception.KeyPairExists(key_name=values['name'])
    return key_pair_obj.KeyPair.from_db(row)


@db.writer
def destroy(context, user_id, name):
    result = context.session.execute(
        sa.delete(KeyPair).where(KeyPair.user_id == user_id,
                                 KeyPair.name == name))
    if result.rowcount == 0:
        raise keypair_exception.KeypairNotFound(name=name, user_id=user_id)
    quota.release(context, {RESOURCE: 1}, user_id=user_id)


@db.reader
def count(context, user_id):
    """How many key pairs the user has (their ``key_pairs`` usage)."""
    return quota.in_use(context, [RESOURCE], user_id=user_id)[RESOURCE]
