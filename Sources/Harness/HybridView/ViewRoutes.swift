import Hummingbird

/// The viewer's routes: each parses its query, loads what its page shows through the ``ViewCatalog`` and answers
/// with a complete HTML document (errors too, as a page with the status and what to do).
struct ViewRoutes: Sendable {
    let catalog: ViewCatalog

    /// No external fetches of any kind, and no scripts: the pages are inline HTML and CSS.
    static let contentSecurityPolicy = "default-src 'none'; style-src 'unsafe-inline'; img-src data:; form-action 'self'"

    /// The routes behind the Host check (added first: middleware applies to the routes registered after it).
    func router(port: BoundPort) -> Router<BasicRequestContext> {
        let router = Router()
        router.middlewares.add(HostCheckMiddleware(port: port))
        let catalog = self.catalog
        router.get("/") { _, _ in
            await Self.respond { try await RunsPage.load(catalog: catalog).render() }
        }
        router.get("/run") { request, _ in
            await Self.respond { try await RunPage.load(QueryParameters(request.uri.query), catalog: catalog).render() }
        }
        router.get("/grid") { request, _ in
            await Self.respond {
                try await GridPage.load(GridParameters(QueryParameters(request.uri.query)), catalog: catalog).render()
            }
        }
        router.get("/diff") { request, _ in
            await Self.respond { try await DiffPage.load(QueryParameters(request.uri.query), catalog: catalog).render() }
        }
        router.get("/rollouts") { _, _ in
            await Self.respond { try await RolloutsPage.load(catalog: catalog).render() }
        }
        router.get("/compare") { request, _ in
            await Self.respond { try await ComparePage.load(QueryParameters(request.uri.query), catalog: catalog).render() }
        }
        return router
    }

    /// Renders the page, or an error page with the status the error carries (500 for store failures).
    static func respond(_ page: () async throws -> String) async -> Response {
        do {
            return html(try await page(), status: .ok)
        } catch let error as ViewError {
            return html(errorPage(error.message), status: HTTPResponse.Status(code: error.status))
        } catch {
            return html(errorPage("\(error)"), status: .internalServerError)
        }
    }

    static func html(_ document: String, status: HTTPResponse.Status) -> Response {
        Response(
            status: status,
            headers: [
                .contentType: "text/html; charset=utf-8", .cacheControl: "no-store",
                .contentSecurityPolicy: contentSecurityPolicy,
            ],
            body: ResponseBody(byteBuffer: ByteBuffer(string: document))
        )
    }

    static func errorPage(_ message: String) -> String {
        var body = HTML()
        body.element("h1", text: "Cannot show this page")
        body.element("p", [("class", "fail")], text: message)
        return PageLayout.document(title: "Error", breadcrumbs: [PageLayout.home], body: body)
    }
}
