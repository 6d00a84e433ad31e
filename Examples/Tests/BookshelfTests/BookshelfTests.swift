import Testing
@testable import Bookshelf
