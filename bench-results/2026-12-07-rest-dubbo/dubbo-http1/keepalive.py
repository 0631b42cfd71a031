#!/usr/bin/env python3
"""One HTTP/1.1 keep-alive connection, one request at a time (as h2load --h1 -c 1 -m 1 sends them): the next
request goes out as soon as the previous answer is in, or after PAUSE seconds. Prints how many were answered
before the server went silent for 2 s, and the sockets of the server's port (ss) at that moment.

    keepalive.py PORT COUNT [PAUSE]
"""
import socket
import subprocess
import sys
import time

port, count = int(sys.argv[1]), int(sys.argv[2])
pause = float(sys.argv[3]) if len(sys.argv) > 3 else 0.0
request = b"GET /items/apple?quantity=3 HTTP/1.1\r\nHost: 127.0.0.1:%d\r\nx-price: 1.50\r\n\r\n" % port
connection = socket.create_connection(("127.0.0.1", port))
connection.settimeout(2)
for i in range(count):
    if pause:
        time.sleep(pause)
    connection.sendall(request)
    received = b""
    while b"quantity" not in received:
        try:
            data = connection.recv(65536)
        except socket.timeout:
            print("request %d of %d: no answer within 2 s (pause %.3f s)" % (i + 1, count, pause))
            print(subprocess.run(["ss", "-tn", "sport = :%d or dport = :%d" % (port, port)],
                                 capture_output=True, text=True).stdout)
            sys.exit(1)
        if not data:
            print("request %d of %d: connection closed" % (i + 1, count))
            sys.exit(1)
        received += data
print("%d of %d answered (pause %.3f s)" % (count, count, pause))
