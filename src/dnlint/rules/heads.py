"""DN4xx: detection heads ([yolo], [Gaussian_yolo], [region], [detection], [iseg])."""
