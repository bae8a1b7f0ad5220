import Foundation
import Registry
import SwiftReader
import TestSupport
import Testing

/// The realistic attribute types in `Fixtures/Swift/` produce exactly the schema a reviewer
/// would write by hand, and every one passes the registry's own rules.
@Suite struct SwiftSchemaReaderFixtureTests {
    @Test func specFlightAttributesGivesTheSpecSchemaWithRequiredContentFields() throws {
        let source = """
            struct FlightAttributes: ActivityAttributes {
                struct ContentState: Codable, Hashable {
                    var gate: String
                    var status: String
                    var estimatedTime: String
                }
                var flightNumber: String
            }
            """
        #expect(try schemaText(source, "FlightAttributes") == #"{"type":"object","properties":{"gate":{"type":"string"},"status":{"type":"string"},"estimatedTime":{"type":"string"}},"required":["gate","status","estimatedTime"],"attributes":{"properties":{"flightNumber":{"type":"string"}},"required":["flightNumber"]}}"#)
    }

    @Test(arguments: ["Flight", "FoodDelivery", "SportsScore", "RideHailing", "Workout", "LexicalCorners"])
    func everyFixtureSchemaPassesTheRegistryRules(fixture: String) throws {
        let text = JSONWriter.string(try fixtureSchema(fixture, "\(fixture)Attributes"))
        let document = try SchemaRules.validate(text)
        #expect(document.attributesProperties != nil)
    }

    @Test func flightFixtureWithRenamedAttributesAndNestedAirline() throws {
        let schema = try fixtureSchema("Flight", "FlightAttributes")
        #expect(JSONPrettyWriter.string(schema) == #"""
            {
              "type": "object",
              "description": "A flight's Live Activity, from check-in to arrival.",
              "properties": {
                "gate": {
                  "type": "string"
                },
                "status": {
                  "type": "string"
                },
                "estimatedTime": {
                  "type": "string"
                },
                "boarding": {
                  "type": "string",
                  "enum": ["not_started", "boarding", "closed"],
                  "description": "Where boarding stands.",
                  "default": "not_started"
                },
                "delayMinutes": {
                  "type": ["integer", "null"],
                  "minimum": -9223372036854775808,
                  "maximum": 9223372036854775807
                },
                "departure": {
                  "type": "number",
                  "format": "date-time",
                  "x-swift-type": "Date"
                },
                "seatMap": {
                  "type": ["string", "null"],
                  "format": "uri",
                  "x-swift-type": "URL"
                }
              },
              "required": ["gate", "status", "estimatedTime", "boarding", "departure"],
              "attributes": {
                "properties": {
                  "flight_number": {
                    "type": "string"
                  },
                  "origin": {
                    "type": "string",
                    "description": "IATA code of the departure airport."
                  },
                  "destination": {
                    "type": "string"
                  },
                  "airline": {
                    "type": "object",
                    "properties": {
                      "name": {
                        "type": "string"
                      },
                      "logo": {
                        "type": ["string", "null"],
                        "format": "uri",
                        "x-swift-type": "URL"
                      }
                    },
                    "required": ["name"]
                  }
                },
                "required": ["flight_number", "origin", "destination", "airline"]
              }
            }
            """#)
    }

    @Test func foodDeliveryFixtureWithAliasedContentStateBesideWidgetCode() throws {
        let schema = try fixtureSchema("FoodDelivery", "FoodDeliveryAttributes")
        #expect(JSONPrettyWriter.string(schema) == #"""
            {
              "type": "object",
              "properties": {
                "stage": {
                  "type": "string",
                  "enum": ["received", "preparing", "picked_up", "on_the_way", "delivered"],
                  "description": "Where the order is."
                },
                "estimatedArrival": {
                  "type": "number",
                  "format": "date-time",
                  "x-swift-type": "Date",
                  "description": "Expected arrival at the door."
                },
                "courier": {
                  "type": ["object", "null"],
                  "properties": {
                    "name": {
                      "type": "string"
                    },
                    "vehicle": {
                      "type": "string"
                    },
                    "rating": {
                      "type": ["number", "null"]
                    },
                    "position": {
                      "type": ["object", "null"],
                      "properties": {
                        "latitude": {
                          "type": "number"
                        },
                        "longitude": {
                          "type": "number"
                        }
                      },
                      "required": ["latitude", "longitude"]
                    }
                  },
                  "required": ["name", "vehicle"]
                },
                "itemsReady": {
                  "type": "integer",
                  "minimum": -9223372036854775808,
                  "maximum": 9223372036854775807,
                  "default": 0
                },
                "note": {
                  "type": ["string", "null"]
                }
              },
              "required": ["stage", "estimatedArrival", "itemsReady"],
              "attributes": {
                "properties": {
                  "orderNumber": {
                    "type": "string"
                  },
                  "restaurantName": {
                    "type": "string"
                  },
                  "items": {
                    "type": "array",
                    "items": {
                      "type": "object",
                      "properties": {
                        "name": {
                          "type": "string"
                        },
                        "quantity": {
                          "type": "integer",
                          "minimum": 0,
                          "maximum": 255
                        }
                      },
                      "required": ["name", "quantity"]
                    }
                  },
                  "total": {
                    "type": "number",
                    "x-swift-type": "Decimal"
                  },
                  "trackingURL": {
                    "type": "string",
                    "format": "uri",
                    "x-swift-type": "URL"
                  }
                },
                "required": ["orderNumber", "restaurantName", "items", "total", "trackingURL"]
              }
            }
            """#)
    }

    @Test func sportsScoreFixtureWithIntEnumsSizedIntegersAndSkippedLet() throws {
        let schema = try fixtureSchema("SportsScore", "SportsScoreAttributes")
        #expect(JSONPrettyWriter.string(schema) == #"""
            {
              "type": "object",
              "description": "A live match between two teams.\n\nUpdated after every scoring play.",
              "properties": {
                "homeScore": {
                  "type": "integer",
                  "minimum": -9223372036854775808,
                  "maximum": 9223372036854775807
                },
                "awayScore": {
                  "type": "integer",
                  "minimum": -9223372036854775808,
                  "maximum": 9223372036854775807
                },
                "period": {
                  "type": "integer",
                  "enum": [1, 2, 3, 4, 10]
                },
                "clockSeconds": {
                  "type": ["integer", "null"],
                  "minimum": -2147483648,
                  "maximum": 2147483647,
                  "description": "Seconds left in the period; nil during breaks."
                },
                "lastPlay": {
                  "type": ["object", "null"],
                  "properties": {
                    "description": {
                      "type": "string"
                    },
                    "team": {
                      "type": "string",
                      "enum": ["home", "away"]
                    },
                    "points": {
                      "type": "integer",
                      "minimum": -128,
                      "maximum": 127
                    }
                  },
                  "required": ["description", "team", "points"]
                },
                "isFinal": {
                  "type": "boolean",
                  "default": false
                },
                "stats": {
                  "type": "object",
                  "additionalProperties": {
                    "type": "number"
                  }
                }
              },
              "required": ["homeScore", "awayScore", "period", "isFinal", "stats"],
              "attributes": {
                "properties": {
                  "league": {
                    "type": "string"
                  },
                  "homeTeam": {
                    "type": "object",
                    "properties": {
                      "name": {
                        "type": "string"
                      },
                      "abbreviation": {
                        "type": "string"
                      },
                      "logoURL": {
                        "type": "string",
                        "format": "uri",
                        "x-swift-type": "URL"
                      },
                      "colors": {
                        "type": "array",
                        "items": {
                          "type": "string"
                        }
                      }
                    },
                    "required": ["name", "abbreviation", "logoURL", "colors"]
                  },
                  "awayTeam": {
                    "type": "object",
                    "properties": {
                      "name": {
                        "type": "string"
                      },
                      "abbreviation": {
                        "type": "string"
                      },
                      "logoURL": {
                        "type": "string",
                        "format": "uri",
                        "x-swift-type": "URL"
                      },
                      "colors": {
                        "type": "array",
                        "items": {
                          "type": "string"
                        }
                      }
                    },
                    "required": ["name", "abbreviation", "logoURL", "colors"]
                  },
                  "startTime": {
                    "type": "number",
                    "format": "date-time",
                    "x-swift-type": "Date"
                  },
                  "venue": {
                    "type": ["string", "null"]
                  }
                },
                "required": ["league", "homeTeam", "awayTeam", "startTime"]
              }
            }
            """#)
    }

    @Test func rideHailingFixtureWithCodingKeysNestedEnumAndUUID() throws {
        let schema = try fixtureSchema("RideHailing", "RideHailingAttributes")
        #expect(JSONPrettyWriter.string(schema) == #"""
            {
              "type": "object",
              "properties": {
                "phase": {
                  "type": "string",
                  "enum": ["searching", "driver_assigned", "arriving", "on_trip", "completed"]
                },
                "driver": {
                  "type": ["object", "null"],
                  "properties": {
                    "name": {
                      "type": "string"
                    },
                    "photo": {
                      "type": ["string", "null"],
                      "format": "uri",
                      "x-swift-type": "URL"
                    },
                    "rating": {
                      "type": "number",
                      "minimum": -3.4028234663852886e38,
                      "maximum": 3.4028234663852886e38,
                      "x-swift-type": "Float"
                    },
                    "car": {
                      "type": "object",
                      "properties": {
                        "make": {
                          "type": "string"
                        },
                        "model": {
                          "type": "string"
                        },
                        "plate": {
                          "type": "string"
                        },
                        "color": {
                          "type": "string"
                        }
                      },
                      "required": ["make", "model", "plate", "color"]
                    }
                  },
                  "required": ["name", "rating", "car"]
                },
                "eta_minutes": {
                  "type": "integer",
                  "minimum": 0,
                  "maximum": 65535,
                  "description": "Minutes until pickup, or until drop-off once the trip has started."
                },
                "route": {
                  "type": "array",
                  "items": {
                    "type": "object",
                    "properties": {
                      "latitude": {
                        "type": "number"
                      },
                      "longitude": {
                        "type": "number"
                      }
                    },
                    "required": ["latitude", "longitude"]
                  }
                },
                "fare": {
                  "type": ["object", "null"],
                  "properties": {
                    "amount": {
                      "type": "number",
                      "x-swift-type": "Decimal"
                    },
                    "currency": {
                      "type": "string",
                      "default": "EUR"
                    }
                  },
                  "required": ["amount", "currency"]
                }
              },
              "required": ["phase", "eta_minutes", "route"],
              "attributes": {
                "properties": {
                  "rideID": {
                    "type": "string",
                    "format": "uuid",
                    "x-swift-type": "UUID"
                  },
                  "pickup": {
                    "type": "string"
                  },
                  "dropoff": {
                    "type": "string"
                  },
                  "serviceLevel": {
                    "type": "string",
                    "enum": ["standard", "comfort", "XL"],
                    "default": "standard"
                  }
                },
                "required": ["rideID", "pickup", "dropoff", "serviceLevel"]
              }
            }
            """#)
    }

    @Test func workoutFixtureWithGenericStructAndTimeInterval() throws {
        let schema = try fixtureSchema("Workout", "WorkoutAttributes")
        #expect(JSONPrettyWriter.string(schema) == #"""
            {
              "type": "object",
              "properties": {
                "elapsedSeconds": {
                  "type": "integer",
                  "minimum": -9223372036854775808,
                  "maximum": 9223372036854775807
                },
                "heartRate": {
                  "type": ["integer", "null"],
                  "minimum": -9223372036854775808,
                  "maximum": 9223372036854775807
                },
                "calories": {
                  "type": "number"
                },
                "distance": {
                  "type": ["object", "null"],
                  "properties": {
                    "value": {
                      "type": "number"
                    },
                    "unit": {
                      "type": "string"
                    }
                  },
                  "required": ["value", "unit"]
                },
                "pace": {
                  "type": ["object", "null"],
                  "properties": {
                    "minutes": {
                      "type": "integer",
                      "minimum": -9223372036854775808,
                      "maximum": 9223372036854775807
                    },
                    "seconds": {
                      "type": "integer",
                      "minimum": -9223372036854775808,
                      "maximum": 9223372036854775807
                    }
                  },
                  "required": ["minutes", "seconds"]
                },
                "currentInterval": {
                  "type": ["object", "null"],
                  "properties": {
                    "name": {
                      "type": "string"
                    },
                    "index": {
                      "type": "integer",
                      "minimum": -9223372036854775808,
                      "maximum": 9223372036854775807
                    },
                    "total": {
                      "type": "integer",
                      "minimum": -9223372036854775808,
                      "maximum": 9223372036854775807
                    },
                    "endsAt": {
                      "type": "number",
                      "format": "date-time",
                      "x-swift-type": "Date"
                    }
                  },
                  "required": ["name", "index", "total", "endsAt"]
                },
                "splits": {
                  "type": "array",
                  "items": {
                    "type": "object",
                    "properties": {
                      "kilometer": {
                        "type": "integer",
                        "minimum": -9223372036854775808,
                        "maximum": 9223372036854775807
                      },
                      "duration": {
                        "type": "number"
                      }
                    },
                    "required": ["kilometer", "duration"]
                  }
                },
                "zone": {
                  "type": "integer",
                  "enum": [0, 1, 2, 3, 4]
                },
                "isPaused": {
                  "type": "boolean"
                }
              },
              "required": ["elapsedSeconds", "calories", "splits", "zone", "isPaused"],
              "attributes": {
                "properties": {
                  "workoutType": {
                    "type": "string",
                    "enum": ["running", "cycling", "swimming", "strength"]
                  },
                  "goal": {
                    "type": ["object", "null"],
                    "properties": {
                      "kind": {
                        "type": "string"
                      },
                      "target": {
                        "type": "object",
                        "properties": {
                          "value": {
                            "type": "number"
                          },
                          "unit": {
                            "type": "string"
                          }
                        },
                        "required": ["value", "unit"]
                      }
                    },
                    "required": ["kind", "target"]
                  },
                  "startedAt": {
                    "type": "number",
                    "format": "date-time",
                    "x-swift-type": "Date"
                  }
                },
                "required": ["workoutType", "startedAt"]
              }
            }
            """#)
    }

    private func fixtureSchema(_ file: String, _ typeName: String) throws -> JSONValue {
        let source = try String(contentsOf: TestPaths.fixture("Swift/\(file).swift"), encoding: .utf8)
        return try SwiftSchemaReader.schema(fromSwiftSource: source, typeName: typeName)
    }
}
