import HTTPServer
import Testing
import TestSupport

@Test func echoHandlerSeesMethodPathQueryHeadersAndBody() throws {
    let test = try TestServer()
    let response = try RawHTTPClient.send(
        port: test.port, method: "POST", target: "/items/a%2Fb?x=1&y=two&x=3",
        headers: [("X-Custom", "Some Value")], body: Array("hello".utf8))
    #expect(response.status == 200)
    #expect(response.header("content-type") == "text/plain")
    let request = try #require(test.handled.first)
    #expect(request.method == "POST")
    #expect(request.path == "/items/a%2Fb")
    #expect(request.query.map(\.name) == ["x", "y", "x"])
    #expect(request.query.map(\.value) == ["1", "two", "3"])
    #expect(request.header("X-CUSTOM") == "Some Value")
    #expect(request.headers.contains { $0.name == "x-custom" })
    #expect(request.body == Array("hello".utf8))
    #expect(response.bodyText.contains("path /items/a%2Fb"))
}

@Test func percentEncodedCharactersStayRawInPathAndQuery() throws {
    let test = try TestServer()
    let response = try RawHTTPClient.send(port: test.port, target: "/a%2Fb/caf%C3%A9%20x?k%3D=v%26w&plus=a+b")
    #expect(response.status == 200)
    let request = try #require(test.handled.first)
    #expect(request.path == "/a%2Fb/caf%C3%A9%20x")
    #expect(request.query.map(\.name) == ["k%3D", "plus"])
    // '+' becoming a space is MHD's doing and accepted; '%26' stays raw.
    #expect(request.query.map(\.value) == ["v%26w", "a b"])
}

@Test func queryOrderIsPreservedIncludingRepeatsAndBareNames() throws {
    let test = try TestServer()
    _ = try RawHTTPClient.send(port: test.port, target: "/q?z=1&a=2&flag&m=3&a=4&empty=")
    let request = try #require(test.handled.first)
    #expect(request.query.map(\.name) == ["z", "a", "flag", "m", "a", "empty"])
    #expect(request.query.map(\.value) == ["1", "2", "", "3", "4", ""])
}

@Test func repeatedHeadersStayInOrderWithLowercasedNames() throws {
    let test = try TestServer()
    _ = try RawHTTPClient.send(port: test.port, target: "/", headers: [("X-A", "1"), ("x-b", "2"), ("X-A", "3")])
    let request = try #require(test.handled.first)
    let custom = request.headers.filter { $0.name.hasPrefix("x-") }
    #expect(custom.map(\.name) == ["x-a", "x-b", "x-a"])
    #expect(custom.map(\.value) == ["1", "2", "3"])
    #expect(request.header("x-a") == "1")
}

@Test func keepAliveServesTwoRequestsOnOneConnection() throws {
    let test = try TestServer()
    let (first, second) = try RawHTTPClient.sendKeepAlive(
        port: test.port,
        first: RawHTTPRequest(method: "POST", target: "/one", body: Array("1".utf8)),
        second: RawHTTPRequest(target: "/two"))
    #expect(first.status == 200)
    #expect(first.header("connection")?.lowercased() != "close")
    #expect(first.bodyText.contains("path /one"))
    #expect(second.status == 200)
    #expect(second.bodyText.contains("path /two"))
    #expect(test.handled.map(\.path) == ["/one", "/two"])
}

@Test func handlerHeadersAreSentAndItsContentLengthIsIgnored() throws {
    let test = try TestServer(handler: { _ in
        HTTPResponse(status: 201, headers: [("Location", "/x/1"), ("Content-Length", "999"), ("X-Two", "a"), ("X-Two", "b")],
                     body: Array("made".utf8))
    })
    let response = try RawHTTPClient.send(port: test.port, target: "/")
    #expect(response.status == 201)
    #expect(response.header("location") == "/x/1")
    #expect(response.header("content-length") == "4")
    #expect(response.headers.filter { $0.name == "x-two" }.map(\.value) == ["a", "b"])
    #expect(response.bodyText == "made")
}

@Test func invalidResponseFromHandlerBecomes500() throws {
    let test = try TestServer(handler: { request in
        request.path == "/split"
            ? HTTPResponse(status: 200, headers: [("X-Evil", "a\r\nSet-Cookie: x=1")], body: Array("no".utf8))
            : HTTPResponse(status: request.path == "/info" ? 102 : 1000)
    })
    let split = try RawHTTPClient.send(port: test.port, target: "/split")
    #expect(split.status == 500)
    #expect(split.header("set-cookie") == nil)
    #expect(split.body.isEmpty)
    #expect(try RawHTTPClient.send(port: test.port, target: "/status").status == 500)
    #expect(try RawHTTPClient.send(port: test.port, target: "/info").status == 500)
}

@Test func headRequestGetsHeadersWithoutBody() throws {
    let test = try TestServer()
    let response = try RawHTTPClient.send(port: test.port, method: "HEAD", target: "/h")
    #expect(response.status == 200)
    #expect(response.body.isEmpty)
    #expect(test.handled.first?.method == "HEAD")
}

@Test func requestHeaderLookupIsCaseInsensitiveAndFirstMatchWins() {
    let request = HTTPRequest(
        method: "GET", path: "/", query: [], headers: [(name: "Accept", value: "a"), (name: "accept", value: "b")], body: [])
    #expect(request.header("ACCEPT") == "a")
    #expect(request.headers.map(\.name) == ["accept", "accept"])
    #expect(request.header("missing") == nil)
}
