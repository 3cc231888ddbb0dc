"""SQLite that takes concurrent requests, inside Glance's own process.

Glance on SQLite (tether-aio) fails under concurrent requests with
``(sqlite3.OperationalError) database is locked``: oslo.db opens every
transaction with a plain, deferred ``BEGIN``, and Glance reads before it
writes in one transaction (an image update, an upload). When two such
transactions overlap, the second cannot upgrade its read lock and SQLite
answers SQLITE_BUSY at once, without waiting for the busy timeout (which
oslo.db leaves at pysqlite's 5 s anyway). Sixteen clients creating images
at the same time saw nearly every request fail.

install() makes every SQLite connection of the process wait up to a
minute for a lock, use WAL (readers do not block the writer) and start
each transaction with ``BEGIN IMMEDIATE``: a transaction takes the write
lock before it reads, so overlapping transactions queue on the busy
timeout instead of failing. For the small databases of an all-in-one that
serialisation costs nothing that matters.

This module runs in Glance's virtualenv: gunicorn's post_fork hook (see
tether.cmd.glance.templates.GUNICORN_CONF) calls install() in each worker
before it loads Glance. The listeners are registered on SQLAlchemy's
Engine class, so they apply to the engines oslo.db creates, and
class-level listeners run before oslo.db's own ``begin`` listener, which
then sees the transaction begun and emits nothing.
"""

import sqlite3

from sqlalchemy.engine import Engine
from sqlalchemy import event

BUSY_TIMEOUT_MS = 60000

_installed = False


def _on_connect(dbapi_connection, connection_record):
    if not isinstance(dbapi_connection, sqlite3.Connection):
        return
    dbapi_connection.execute('PRAGMA busy_timeout = %d' % BUSY_TIMEOUT_MS)
    dbapi_connection.execute('PRAGMA journal_mode = WAL')
    dbapi_connection.execute('PRAGMA synchronous = NORMAL')


def _on_begin(connection):
    if connection.dialect.name != 'sqlite':
        return
    # The marker oslo.db's own listeners set and clear.
    if 'in_transaction' not in connection.info:
        connection.exec_driver_sql('BEGIN IMMEDIATE')
        connection.info['in_transaction'] = True


def install():
    """Register the listeners (once per process)."""
    global _installed
    if not _installed:
        event.listen(Engine, 'connect', _on_connect)
        event.listen(Engine, 'begin', _on_begin)
        _installed = True
