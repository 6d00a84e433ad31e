import Gateway

// Every `GatewayError` made from these (`SQLiteCacheDatabase.gatewayError`) puts their message
// in its own, so descriptions do not name their internal types as `underlying`.
extension SQLiteError: RestatedInMessage {}
extension SQLiteSchemaError: RestatedInMessage {}
extension SQLiteFileError: RestatedInMessage {}
