"""What views and the room's websocket both render: one context builder per panel."""
