package storage

import "contracts/signflow"

// DecodeDeliveryRow reads a stored delivery row, in either layout.
func DecodeDeliveryRow(data []byte, d *signflow.Delivery) error { return decodeDelivery(data, d) }

// EncodeDeliveryRow is a delivery row as this build stores it.
func EncodeDeliveryRow(d *signflow.Delivery) []byte { return encodeDelivery(d) }
