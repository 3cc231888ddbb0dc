"""A kombu consumer and publisher of one direct queue, for the tests of
tether-aio's brokers (tether.memory_transport, tether.socket_transport)."""

import time

import kombu


def consumer(url, name, received, transport=None):
    """A connection consuming the queue ``name``: each message's body and
    the time it came are appended to ``received``."""
    conn = kombu.Connection(url, transport=transport)
    if url.startswith('memory'):
        # As oslo.messaging sets up a memory transport: no pause between
        # polls (kombu's own is 1 s).
        conn.transport.polling_interval = 0.0
    queue = kombu.Queue(name, kombu.Exchange(name, 'direct'), name)
    consumer = kombu.Consumer(
        conn, [queue], callbacks=[lambda body, msg: (received.append(
            (body, time.monotonic())), msg.ack())])
    consumer.consume()
    return conn


def publish(name, body):
    """Put ``body`` on the queue ``name`` of this process's memory broker."""
    with kombu.Connection('memory://') as conn:
        conn.Producer().publish(body, exchange=kombu.Exchange(
            name, 'direct'), routing_key=name, declare=[kombu.Queue(
                name, kombu.Exchange(name, 'direct'), name)])
