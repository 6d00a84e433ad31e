@_exported import GatewayLoopback
