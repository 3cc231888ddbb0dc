"""The built-in HTTP server's own answers as tether's JSON faults.

cheroot answers what it cannot hand to the WSGI app itself (a malformed
request line or header, a ``Content-Length`` that is no number, a method
in lower case, raw spaces in the path, an HTTP version it does not
speak; 503 when every thread is busy) with a ``text/plain`` body. Here
the same answers carry the fault body both APIs use
(``{"badRequest": {"code": 400, "message": ..., "error_code":
"api.http.malformed"}}``), so that a client parses every error one way.
The status, the message and the connection handling stay cheroot's.
"""

import socket

from cheroot import errors
from cheroot import server

from tether.api import fault


class Request(server.HTTPRequest):

    def simple_response(self, status, msg=''):
        status = str(status)
        code = int(status[:3])
        message = msg.decode('ISO-8859-1') if isinstance(msg, bytes) else \
            msg
        body = fault.error_response(
            code, message or status[4:],
            code=fault.MALFORMED_HTTP if code == 400 else None).body
        lines = ['%s %s' % (self.server.protocol, status),
                 'Content-Length: %d' % len(body),
                 'Content-Type: application/json']
        if code in (413, 414):
            # As cheroot: the rest of the request is not read.
            self.close_connection = True
            if self.response_protocol == 'HTTP/1.1':
                lines.append('Connection: close')
            else:
                # HTTP/1.0 has neither status.
                lines[0] = '%s 400 Bad Request' % self.server.protocol
        head = ('\r\n'.join(lines) + '\r\n\r\n').encode('ISO-8859-1')
        try:
            self.conn.wfile.write(head + body)
        except socket.error as exc:
            if exc.args[0] not in errors.socket_errors_to_ignore:
                raise


class Connection(server.HTTPConnection):
    RequestHandlerClass = Request
