// The loopback HTTP/1.1 server arrives here.
